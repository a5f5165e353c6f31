// Reference oracle for bench/accuracy_app.py: javac's own attribution of an application's
// calls, without the application's jars (issue 33).
//
// Usage: java bench/AppRefOracle.java <repository root>   (JDK 22 or later: it uses
// RefOracle.java's naming, which the source launcher compiles beside it)
//
// Compiles every .java file under the root (main and test, every module; `target/`,
// `build/` and dot-folders left out) in one JavacTask with `-proc:none -implicit:none
// -XDshould-stop.ifError=FLOW` (without that flag the missing-package errors stop javac
// before attribution), runs parse() + analyze(), and prints one line per method call and
// `new` it attributed: path, line, kind (call, new), the target as repochart names it
// (`com.acme.Type#m(int,String...)`, erased parameter types by simple name) and whether the
// target is declared in the application (`app`) or outside it (`lib`). A call site whose
// receiver or an argument is of an erroneous type (a class of a missing jar), or whose
// target has a same-arity overload with an erroneous parameter type, is printed as `skip`
// with no target: javac's own answer there is a guess.

import com.sun.source.tree.*;
import com.sun.source.util.*;
import javax.lang.model.element.*;
import javax.lang.model.type.*;
import javax.tools.*;
import java.io.*;
import java.nio.file.*;
import java.util.*;
import java.util.stream.*;

public class AppRefOracle {

    /** Every .java file of an application: main and test, every module; `target/`,
     * `build/`, `node_modules/` and dot-folders left out. (ImpactOracle.java reads them too.) */
    static List<File> sources(Path root) throws IOException {
        try (Stream<Path> walk = Files.walk(root)) {
            return walk.filter(p -> p.toString().endsWith(".java"))
                    .filter(p -> {
                        for (Path part : root.relativize(p)) {
                            String s = part.toString();
                            if (s.startsWith(".") || s.equals("target") || s.equals("build") || s.equals("node_modules")) return false;
                        }
                        return !p.getFileName().toString().equals("module-info.java");
                    })
                    .map(Path::toFile).sorted().collect(Collectors.toList());
        }
    }

    static boolean erroneous(TypeMirror t) {
        return t == null || t.getKind() == TypeKind.ERROR;
    }

    /** An argument of an erroneous type (a class of a missing jar), at `path`'s call. */
    static boolean argsErroneous(Trees trees, TreePath path, List<? extends ExpressionTree> args) {
        for (ExpressionTree a : args) {
            if (erroneous(trees.getTypeMirror(new TreePath(path, a)))) return true;
        }
        return false;
    }

    /** A same-arity overload of `m` in its type with a parameter of an erroneous type. */
    static boolean overloadErroneous(ExecutableElement m) {
        for (Element other : m.getEnclosingElement().getEnclosedElements()) {
            if (other.getKind() != m.getKind() || !other.getSimpleName().equals(m.getSimpleName())) continue;
            ExecutableElement o = (ExecutableElement) other;
            if (o.getParameters().size() != m.getParameters().size()) continue;
            for (VariableElement p : o.getParameters()) if (erroneous(p.asType())) return true;
        }
        return false;
    }

    public static void main(String[] args) throws Exception {
        Path root = Paths.get(args[0]).toAbsolutePath().normalize();
        List<File> files = sources(root);
        JavaCompiler compiler = ToolProvider.getSystemJavaCompiler();
        StandardJavaFileManager fm = compiler.getStandardFileManager(null, null, null);
        List<String> options = List.of("-proc:none", "-implicit:none", "-XDshould-stop.ifError=FLOW", "-Xlint:none", "-nowarn", "-Xmaxerrs", "0");
        JavacTask task = (JavacTask) compiler.getTask(null, fm, d -> {}, options, null, fm.getJavaFileObjectsFromFiles(files));
        Iterable<? extends CompilationUnitTree> units = task.parse();
        task.analyze();
        Trees trees = Trees.instance(task);
        // Targets are named by RefOracle's rules (the launcher compiles RefOracle.java beside
        // this file: a multi-file source program, JDK 22+).
        RefOracle.types = task.getTypes();
        RefOracle.elements = task.getElements();
        PrintStream out = new PrintStream(new BufferedOutputStream(System.out), false);
        for (CompilationUnitTree unit : units) {
            String path = root.relativize(Paths.get(unit.getSourceFile().toUri())).toString();
            LineMap lines = unit.getLineMap();
            new TreePathScanner<Void, Void>() {
                boolean argsErroneous(List<? extends ExpressionTree> args) {
                    return AppRefOracle.argsErroneous(trees, getCurrentPath(), args);
                }

                void print(long line, String kind, Element e) {
                    String name = RefOracle.name(e);
                    if (name == null) return;
                    out.println(path + "\t" + line + "\t" + kind + "\t" + name + "\t" + (trees.getPath(e) != null ? "app" : "lib"));
                }

                /** A site javac's answer is no truth for: the name called, for the comparer. */
                void skip(long line, String name) {
                    out.println(path + "\t" + line + "\tskip\t" + name + "\t-");
                }

                @Override
                public Void visitMethodInvocation(MethodInvocationTree node, Void v) {
                    ExpressionTree select = node.getMethodSelect();
                    long end = trees.getSourcePositions().getEndPosition(unit, select);
                    long line = lines.getLineNumber(end);
                    Element e = trees.getElement(getCurrentPath());
                    boolean bad = !(e instanceof ExecutableElement) || argsErroneous(node.getArguments());
                    if (!bad && select instanceof MemberSelectTree ms) {
                        TypeMirror receiver = trees.getTypeMirror(new TreePath(getCurrentPath(), ms.getExpression()));
                        bad = erroneous(receiver);
                    }
                    if (!bad) bad = overloadErroneous((ExecutableElement) e);
                    String at = select.toString();
                    String called = select instanceof MemberSelectTree ms ? ms.getIdentifier().toString() : at;
                    boolean constructorCall = at.equals("this") || at.equals("super");
                    // The `super()` javac adds to a constructor has no place in the source.
                    if (trees.getSourcePositions().getStartPosition(unit, node) < 0 || line < 1) return super.visitMethodInvocation(node, v);
                    if (bad) skip(line, called);
                    else if (!constructorCall || e.getKind() == ElementKind.CONSTRUCTOR) print(line, "call", e);
                    return super.visitMethodInvocation(node, v);
                }

                @Override
                public Void visitNewClass(NewClassTree node, Void v) {
                    long line = lines.getLineNumber(trees.getSourcePositions().getStartPosition(unit, node));
                    Element e = trees.getElement(getCurrentPath());
                    String type = node.getIdentifier().toString().replaceAll("<.*", "");
                    type = type.substring(type.lastIndexOf('.') + 1);
                    if (node.getClassBody() != null) {
                        // An anonymous class: the index names the class it extends.
                        Element t = trees.getElement(new TreePath(getCurrentPath(), node.getIdentifier()));
                        if (t == null || erroneous(t.asType())) skip(line, type);
                        else print(line, "new", t);
                    } else if (!(e instanceof ExecutableElement) || argsErroneous(node.getArguments()) || overloadErroneous((ExecutableElement) e)) {
                        skip(line, type);
                    } else {
                        print(line, "new", e);
                    }
                    return super.visitNewClass(node, v);
                }
            }.scan(unit, null);
        }
        out.flush();
    }
}
