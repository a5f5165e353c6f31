// Writes grammars/java/jdk-types.txt: every public type of the JDK's exported `java.*`
// packages with its direct supertypes, read by the resolver (`src/resolve/jdk.rs`) to decide
// overloads by the types of arguments from the JDK (`close(out)`, `out` a FileOutputStream,
// picks `close(Closeable)` over `close(AutoCloseable)`).
//
// Run with the JDK whose API it describes (a single-file program, no build):
//   java grammars/java/JdkTypes.java > grammars/java/jdk-types.txt
//   java grammars/java/JdkTypes.java members > grammars/java/jdk-members.txt
//   java grammars/java/JdkTypes.java lambdas > grammars/java/jdk-lambdas.txt
//
// jdk-types.txt, a line per type: the type's canonical name, `c` (class), `i` (interface),
// `e` (enum), `r` (record) or `a` (annotation), then its direct supertypes' canonical names
// (the superclass first; `java.lang.Object` left out), separated by single spaces. Sorted by
// name.
//
// jdk-members.txt, what the type of a JDK method's value or a JDK field is (a call chain
// through the JDK: `date.atTime(t)` is a `LocalDateTime`): a line `=<type>` for each type
// that declares such public members, then a line per member name declared there, sorted:
// the name (a field's with a leading `.`) and the erased types its overloads of that name
// return, each once, sorted (`atTime java.time.LocalDateTime java.time.OffsetDateTime`).
// Left out: `void` methods. A name whose overloads return a type variable (`E get(int)`:
// what it is depends on the receiver's type arguments, which the element rules of
// elements.toml follow instead) gives `?`.
//
// jdk-lambdas.txt, what a lambda passed to a JDK method or constructor implements: a line
// `=<type>` for each type that declares public methods or constructors taking a functional
// interface, then a line per (name, arity, parameter index), sorted: `name/arity/index` (a
// constructor's name is `new`) and the erased functional interfaces its overloads of that
// arity take there, each once (`sort/1/0 java.util.Comparator`; `submit/1/0
// java.lang.Runnable java.util.concurrent.Callable`: the lambda's shape decides, the
// resolver does not).

import java.lang.module.ModuleDescriptor;
import java.lang.module.ModuleFinder;
import java.lang.module.ModuleReference;
import java.lang.reflect.Field;
import java.lang.reflect.Method;
import java.lang.reflect.Modifier;
import java.lang.reflect.TypeVariable;
import java.net.URI;
import java.nio.file.FileSystem;
import java.nio.file.FileSystems;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.Set;
import java.util.TreeSet;
import java.util.stream.Stream;

public class JdkTypes {
    public static void main(String[] args) throws Exception {
        boolean members = args.length > 0 && args[0].equals("members");
        boolean lambdas = args.length > 0 && args[0].equals("lambdas");
        FileSystem jrt = FileSystems.getFileSystem(URI.create("jrt:/"));
        TreeSet<String> lines = new TreeSet<>();
        for (ModuleReference ref : ModuleFinder.ofSystem().findAll()) {
            ModuleDescriptor module = ref.descriptor();
            if (!module.name().startsWith("java.")) continue;
            Set<String> exported = new TreeSet<>();
            for (ModuleDescriptor.Exports e : module.exports()) {
                if (!e.isQualified()) exported.add(e.source());
            }
            Path root = jrt.getPath("/modules", module.name());
            try (Stream<Path> files = Files.walk(root)) {
                for (Path p : (Iterable<Path>) files::iterator) {
                    String rel = root.relativize(p).toString();
                    if (!rel.endsWith(".class") || rel.equals("module-info.class")) continue;
                    String binary = rel.substring(0, rel.length() - 6).replace('/', '.');
                    String pkg = binary.substring(0, Math.max(0, binary.lastIndexOf('.')));
                    if (!exported.contains(pkg)) continue;
                    Class<?> c;
                    try {
                        c = Class.forName(binary, false, ClassLoader.getPlatformClassLoader());
                    } catch (Throwable t) {
                        continue;
                    }
                    if (!visible(c)) continue;
                    if (members || lambdas) {
                        String block = members ? members(c) : lambdas(c);
                        if (!block.isEmpty()) lines.add(block);
                    } else {
                        lines.add(line(c));
                    }
                }
            }
        }
        for (String l : lines) System.out.println(l);
    }

    /// `=<type>` and a line per member name, or nothing when no member has a known type.
    static String members(Class<?> c) {
        Map<String, TreeSet<String>> types = new TreeMap<>();
        TreeSet<String> generic = new TreeSet<>();
        List<Method> methods = new ArrayList<>();
        Field[] fields;
        try {
            methods.addAll(List.of(c.getDeclaredMethods()));
            // What it inherits from a class that is not public (`StringBuilder#length`,
            // declared in `AbstractStringBuilder`): the table has no line for that class.
            for (Method m : c.getMethods()) {
                if (m.getDeclaringClass() != c && !visible(m.getDeclaringClass())) methods.add(m);
            }
            fields = c.getDeclaredFields();
        } catch (Throwable t) {
            return "";
        }
        for (Method m : methods) {
            if (!Modifier.isPublic(m.getModifiers()) || (m.isBridge() && !visibilityBridge(m, methods))) continue;
            if (m.getGenericReturnType() instanceof TypeVariable<?>) {
                generic.add(m.getName());
                continue;
            }
            String t = name(m.getReturnType());
            if (t == null || t.equals("void")) continue;
            types.computeIfAbsent(m.getName(), k -> new TreeSet<>()).add(t);
        }
        for (Field f : fields) {
            if (!Modifier.isPublic(f.getModifiers()) || f.isSynthetic()) continue;
            if (f.getGenericType() instanceof TypeVariable<?>) continue;
            String t = name(f.getType());
            if (t != null) types.computeIfAbsent("." + f.getName(), k -> new TreeSet<>()).add(t);
        }
        // Named so that a lookup stops here, rather than go on to a supertype's overloads.
        for (String g : generic) types.put(g, new TreeSet<>(List.of("?")));
        if (types.isEmpty()) return "";
        StringBuilder out = new StringBuilder("=").append(c.getCanonicalName());
        types.forEach((n, ts) -> out.append('\n').append(n).append(' ').append(String.join(" ", ts)));
        return out.toString();
    }

    /// `=<type>` and a line per (name, arity, index) where a functional interface is taken,
    /// or nothing.
    static String lambdas(Class<?> c) {
        Map<String, TreeSet<String>> taken = new TreeMap<>();
        List<java.lang.reflect.Executable> callables = new ArrayList<>();
        try {
            for (Method m : c.getDeclaredMethods()) {
                if (Modifier.isPublic(m.getModifiers()) && !m.isBridge()) callables.add(m);
            }
            for (java.lang.reflect.Constructor<?> k : c.getDeclaredConstructors()) {
                if (Modifier.isPublic(k.getModifiers())) callables.add(k);
            }
        } catch (Throwable t) {
            return "";
        }
        for (java.lang.reflect.Executable e : callables) {
            Class<?>[] params = e.getParameterTypes();
            String name = e instanceof java.lang.reflect.Constructor<?> ? "new" : e.getName();
            for (int i = 0; i < params.length; i++) {
                if (!functional(params[i]) || name(params[i]) == null) continue;
                taken.computeIfAbsent(String.format("%s/%d/%d", name, params.length, i), k -> new TreeSet<>()).add(name(params[i]));
            }
        }
        if (taken.isEmpty()) return "";
        StringBuilder out = new StringBuilder("=").append(c.getCanonicalName());
        taken.forEach((k, ts) -> out.append('\n').append(k).append(' ').append(String.join(" ", ts)));
        return out.toString();
    }

    /// A functional interface: public, one abstract method that is not `Object`'s.
    static boolean functional(Class<?> t) {
        if (!t.isInterface() || t.isAnnotation() || !visible(t)) return false;
        int abstracts = 0;
        for (Method m : t.getMethods()) {
            if (!Modifier.isAbstract(m.getModifiers())) continue;
            try {
                Object.class.getMethod(m.getName(), m.getParameterTypes());
                continue;
            } catch (NoSuchMethodException e) {
                abstracts++;
            }
        }
        return abstracts == 1;
    }

    /// A bridge that makes a method of a class that is not public callable through a public
    /// one (`StringBuilder#length()`, from `AbstractStringBuilder`), not one for an
    /// override's covariant or erased signature: no other method there takes its parameters.
    static boolean visibilityBridge(Method m, List<Method> methods) {
        for (Method o : methods) {
            if (o != m && !o.isBridge() && o.getName().equals(m.getName())
                    && java.util.Arrays.equals(o.getParameterTypes(), m.getParameterTypes())) return false;
        }
        return true;
    }

    /// A type's canonical name (`int`, `byte[]`, `java.util.Map.Entry`), or null for one
    /// that has none.
    static String name(Class<?> t) {
        return t.getCanonicalName();
    }

    /// Public, and every enclosing class public too.
    static boolean visible(Class<?> c) {
        for (Class<?> k = c; k != null; k = k.getDeclaringClass()) {
            if (!Modifier.isPublic(k.getModifiers()) || k.isAnonymousClass() || k.isLocalClass()) return false;
        }
        return c.getCanonicalName() != null;
    }

    static String line(Class<?> c) {
        String kind = c.isAnnotation() ? "a" : c.isInterface() ? "i" : c.isEnum() ? "e" : c.isRecord() ? "r" : "c";
        List<String> out = new ArrayList<>();
        out.add(c.getCanonicalName());
        out.add(kind);
        Class<?> sup = c.getSuperclass();
        if (sup != null && sup != Object.class && sup.getCanonicalName() != null) out.add(sup.getCanonicalName());
        for (Class<?> i : c.getInterfaces()) {
            if (i.getCanonicalName() != null) out.add(i.getCanonicalName());
        }
        return String.join(" ", out);
    }
}
