// Writes grammars/java/jdk-types.txt: every public type of the JDK's exported `java.*`
// packages with its direct supertypes, read by the resolver (`src/resolve/jdk.rs`) to decide
// overloads by the types of arguments from the JDK (`close(out)`, `out` a FileOutputStream,
// picks `close(Closeable)` over `close(AutoCloseable)`).
//
// Run with the JDK whose API it describes (a single-file program, no build):
//   java grammars/java/JdkTypes.java > grammars/java/jdk-types.txt
//
// A line: the type's canonical name, `c` (class), `i` (interface), `e` (enum), `r` (record)
// or `a` (annotation), then its direct supertypes' canonical names (the superclass first;
// `java.lang.Object` left out), separated by single spaces. Sorted by name.

import java.lang.module.ModuleDescriptor;
import java.lang.module.ModuleFinder;
import java.lang.module.ModuleReference;
import java.lang.reflect.Modifier;
import java.net.URI;
import java.nio.file.FileSystem;
import java.nio.file.FileSystems;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import java.util.stream.Stream;

public class JdkTypes {
    public static void main(String[] args) throws Exception {
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
                    lines.add(line(c));
                }
            }
        }
        for (String l : lines) System.out.println(l);
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
