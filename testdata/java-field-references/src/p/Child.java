package p;

import static q.Consts.NAME;

import java.util.function.IntUnaryOperator;

class Child extends Base {
    int size;
    Base Base;
    final Object mutex = new Object();

    int shadowed(int size) {
        return size + count;
    }

    IntUnaryOperator lambda() {
        return size -> size + LIMIT;
    }

    String imported() {
        return NAME;
    }

    int qualified() {
        Base.make();
        p.Base.make();
        return Base.count;
    }

    int later() {
        return extra; // declared by a later edit of Base
    }

    int arrays(String[] names) {
        return names.length;
    }

    void locked() {
        synchronized (mutex) {
            size++;
        }
    }

    int chained() {
        return Base.make().self().count;
    }

    class Inner {
        int size;

        int outer() {
            return Child.this.size + this.size;
        }
    }
}
