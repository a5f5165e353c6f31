// Reference oracle for bench/accuracy_java.py: javac's own attribution of java.base sources.
//
// Usage: java bench/RefOracle.java <module source root, e.g. .../java.base> <package dir, e.g. java/util>
//
// Parses and attributes every .java file of the package directory (not its subpackages)
// as part of java.base (--patch-module), then prints one line per reference the compiler
// resolved to a declaration: path, line, kind (call, new, new_anon, mref, type, qualifier,
// field), and the target as repochart names it (com.acme.Type, com.acme.Type.Nested,
// com.acme.Type#field), methods and constructors with their erased parameter types by
// simple name (com.acme.Type#m(int,String...), com.acme.Type#Type(List)): one key per
// signature, so that overloads are told apart. A constructor the compiler supplies (a
// class without one) is named by its class, as the index names it.

import com.sun.source.tree.*;
import com.sun.source.util.*;
import javax.lang.model.element.*;
import javax.lang.model.util.Elements;
import javax.tools.*;
import java.io.*;
import java.nio.file.*;
import java.util.*;

public class RefOracle {
    static javax.lang.model.util.Types types;
    static javax.lang.model.util.Elements elements;

    public static void main(String[] args) throws Exception {
        Path root = Paths.get(args[0]);
        Path dir = root.resolve(args[1]);
        List<File> files = new ArrayList<>();
        try (DirectoryStream<Path> ds = Files.newDirectoryStream(dir, "*.java")) {
            for (Path p : ds) {
                if (!p.getFileName().toString().equals("package-info.java")) files.add(p.toFile());
            }
        }
        Collections.sort(files);
        JavaCompiler compiler = ToolProvider.getSystemJavaCompiler();
        StandardJavaFileManager fm = compiler.getStandardFileManager(null, null, null);
        // The module the sources are: the root's directory name (java.base, jdk.compiler).
        String module = root.toAbsolutePath().normalize().getFileName().toString();
        List<String> options = List.of("--patch-module", module + "=" + root, "-proc:none", "-Xlint:none", "-nowarn", "-XDshould-stop.ifError=FLOW");
        JavacTask task = (JavacTask) compiler.getTask(null, fm, d -> {}, options, null, fm.getJavaFileObjectsFromFiles(files));
        Iterable<? extends CompilationUnitTree> units = task.parse();
        task.analyze();
        Trees trees = Trees.instance(task);
        types = task.getTypes();
        elements = task.getElements();
        PrintStream out = new PrintStream(new BufferedOutputStream(System.out), false);
        for (CompilationUnitTree unit : units) {
            String path = root.relativize(Paths.get(unit.getSourceFile().toUri())).toString();
            LineMap lines = unit.getLineMap();
            CharSequence source = unit.getSourceFile().getCharContent(true);
            new TreePathScanner<Void, Void>() {
                void emit(Tree node, String kind, Element e) {
                    if (e == null) return;
                    String name = name(e);
                    if (name == null) return;
                    long line = lines.getLineNumber(trees.getSourcePositions().getStartPosition(unit, node));
                    out.println(path + "\t" + line + "\t" + kind + "\t" + name);
                }

                @Override
                public Void visitMethodInvocation(MethodInvocationTree node, Void v) {
                    Element e = trees.getElement(getCurrentPath());
                    if (e != null && e.getKind() == ElementKind.CONSTRUCTOR) {
                        // `this(...)`, `super(...)`; javac adds `super()` to constructors that
                        // call none, where the source has no such text.
                        long start = trees.getSourcePositions().getStartPosition(unit, node);
                        if (start >= 0 && start < source.length()) {
                            String at = source.subSequence((int) start, (int) Math.min(source.length(), start + 5)).toString();
                            if (at.startsWith("this") || at.startsWith("super")) emit(node, "call", e);
                        }
                        scan(node.getArguments(), v);
                        return null;
                    }
                    if (e != null && e.getKind() == ElementKind.METHOD) {
                        // The line of the method name, as the index records it.
                        Tree at = node.getMethodSelect();
                        if (at instanceof MemberSelectTree ms) {
                            // Scanned with its real parent, so a type qualifier counts as one.
                            // (scan(TreePath) leaves no current path behind: arguments get theirs.)
                            TreePath here = getCurrentPath();
                            scan(new TreePath(new TreePath(here, ms), ms.getExpression()), v);
                            emitAtName(ms, "call", e);
                            for (ExpressionTree arg : node.getArguments()) scan(new TreePath(here, arg), v);
                            return null;
                        }
                        emit(at, "call", e);
                        scan(node.getArguments(), v);
                        return null;
                    }
                    return super.visitMethodInvocation(node, v);
                }

                void emitAtName(MemberSelectTree ms, String kind, Element e) {
                    // A chained call's name may sit on a later line than its expression start.
                    long end = trees.getSourcePositions().getEndPosition(unit, ms);
                    long line = lines.getLineNumber(end);
                    String name = name(e);
                    if (name != null) out.println(path + "\t" + line + "\t" + kind + "\t" + name);
                }

                @Override
                public Void visitNewClass(NewClassTree node, Void v) {
                    // An enum constant is a `new` of its enum, at the constant, with the
                    // constant's arguments (JLS 8.9.1), as bench/AppRefOracle.java counts it.
                    Element type = trees.getElement(new TreePath(getCurrentPath(), node.getIdentifier()));
                    Element ctor = trees.getElement(getCurrentPath());
                    if (node.getClassBody() != null) {
                        if (type != null) emit(node, "new_anon", type);
                    } else if (ctor != null && ctor.getKind() == ElementKind.CONSTRUCTOR) {
                        emit(node, "new", ctor);
                    } else if (type != null) {
                        emit(node, "new", type);
                    }
                    scan(node.getEnclosingExpression(), v);
                    scan(node.getArguments(), v);
                    scan(node.getClassBody(), v);
                    return null;
                }

                /** A type named as the qualifier of a member select (`Arrays.sort`, `Foo.BAR`). */
                boolean isQualifier() {
                    Tree parent = getCurrentPath().getParentPath().getLeaf();
                    return parent instanceof MemberSelectTree ms && ms.getExpression() == getCurrentPath().getLeaf();
                }

                @Override
                public Void visitIdentifier(IdentifierTree node, Void v) {
                    Element e = trees.getElement(getCurrentPath());
                    if (e != null) {
                        if (e.getKind().isClass() || e.getKind().isInterface()) emit(node, isQualifier() ? "qualifier" : "type", e);
                        else if (e.getKind() == ElementKind.FIELD || e.getKind() == ElementKind.ENUM_CONSTANT) emit(node, "field", e);
                    }
                    return null;
                }

                @Override
                public Void visitMemberSelect(MemberSelectTree node, Void v) {
                    Element e = trees.getElement(getCurrentPath());
                    if (e != null) {
                        if (e.getKind().isClass() || e.getKind().isInterface()) {
                            emitAtName(node, isQualifier() ? "qualifier" : "type", e);
                            return null; // a qualified type name: its qualifier is not a separate use
                        }
                        if (e.getKind() == ElementKind.FIELD || e.getKind() == ElementKind.ENUM_CONSTANT) emitAtName(node, "field", e);
                    }
                    return super.visitMemberSelect(node, v);
                }

                @Override
                public Void visitMemberReference(MemberReferenceTree node, Void v) {
                    Element e = trees.getElement(getCurrentPath());
                    if (e != null && (e.getKind() == ElementKind.METHOD || e.getKind() == ElementKind.CONSTRUCTOR)) {
                        emitAtName(node, "mref", e);
                    }
                    return super.visitMemberReference(node, v);
                }

                void emitAtName(MemberReferenceTree node, String kind, Element e) {
                    long end = trees.getSourcePositions().getEndPosition(unit, node);
                    String name = name(e);
                    if (name != null) out.println(path + "\t" + lines.getLineNumber(end) + "\t" + kind + "\t" + name);
                }

                @Override
                public Void visitImport(ImportTree node, Void v) {
                    return null; // imports are compared by the type-level checks
                }
            }.scan(unit, null);
        }
        out.flush();
    }

    /** A parameter type erased, by simple name, arrays as `[]`. */
    static String erased(javax.lang.model.type.TypeMirror t) {
        javax.lang.model.type.TypeMirror er = types.erasure(t);
        if (er instanceof javax.lang.model.type.ArrayType a) return erased(a.getComponentType()) + "[]";
        if (er instanceof javax.lang.model.type.DeclaredType d) return d.asElement().getSimpleName().toString();
        return er.toString();
    }

    /** The element as repochart names it: types by dotted nesting, members as Type#name. */
    static String name(Element e) {
        switch (e.getKind()) {
            case CLASS, INTERFACE, ENUM, RECORD, ANNOTATION_TYPE -> {
                if (!(e instanceof TypeElement t)) return null;
                if (t.getNestingKind() == NestingKind.LOCAL || t.getNestingKind() == NestingKind.ANONYMOUS) return null;
                return t.getQualifiedName().toString();
            }
            case METHOD, CONSTRUCTOR -> {
                ExecutableElement m = (ExecutableElement) e;
                Element owner = e.getEnclosingElement();
                String o = name(owner);
                if (o == null) return null;
                if (m.getKind() == ElementKind.CONSTRUCTOR && elements.getOrigin(m) == Elements.Origin.MANDATED) return o;
                String simple = m.getKind() == ElementKind.CONSTRUCTOR ? owner.getSimpleName().toString() : m.getSimpleName().toString();
                StringBuilder sig = new StringBuilder(o).append('#').append(simple).append('(');
                List<? extends VariableElement> params = m.getParameters();
                for (int i = 0; i < params.size(); i++) {
                    if (i > 0) sig.append(',');
                    String t = erased(params.get(i).asType());
                    if (m.isVarArgs() && i == params.size() - 1 && t.endsWith("[]")) t = t.substring(0, t.length() - 2) + "...";
                    sig.append(t);
                }
                return sig.append(')').toString();
            }
            case FIELD, ENUM_CONSTANT -> {
                // `X.this`, `X.super`, `X.class` are no declarations.
                String simple = e.getSimpleName().toString();
                if (simple.equals("this") || simple.equals("super") || simple.equals("class")) return null;
                Element owner = e.getEnclosingElement();
                String o = name(owner);
                return o == null ? null : o + "#" + e.getSimpleName();
            }
            default -> {
                return null;
            }
        }
    }
}
