// Call-graph oracle for bench/impact_app.py: javac's own attributed uses between an
// application's members, and its overrides, without the application's jars (issue 50).
//
// Usage: java bench/ImpactOracle.java <repository root>   (JDK 22 or later: it uses
// RefOracle.java's naming, which the source launcher compiles beside it)
//        java bench/ImpactOracle.java <module source root> <package dir>   (a JDK module's
//        package, e.g. .../java.base java/util, compiled as part of that module)
//
// Compiles every .java file under the root as bench/AppRefOracle.java does (`-proc:none
// -implicit:none -XDshould-stop.ifError=FLOW`, no classpath) and prints, tab-separated:
//   M  member  path:line           a method of the application (not in a local or anonymous class)
//   E  from  to  kind  path:line   `from` uses application member `to`: call, new, ref
//                                  (a method reference), field (a read or write)
//   S  from  name                  a call or `new` whose receiver, an argument or a same-arity
//                                  overload is of an erroneous type: javac's target is a guess
//   O  method  overridden          Elements.overrides, every application supertype's method
//   L  nameless  type  path:line   a lambda or method reference and the type it is converted to
//                                  (`?`: a type javac could not give)
// A member of an anonymous class, a lambda or a method reference is named by the member that
// holds it, `a.B#m.$` (its own number is left out: both sides count them differently); it
// overrides the application's method it implements (a lambda: its functional interface's
// one abstract method), and its holder uses it (`contain`: what changes it changes its
// holder).
// `from` is the member that holds the code as repochart names it: a method, constructor or
// field; code in a lambda or an anonymous or local class is its enclosing member's; an
// initializer block is its class's.

import com.sun.source.tree.*;
import com.sun.source.util.*;
import javax.lang.model.element.*;
import javax.lang.model.type.*;
import javax.lang.model.util.*;
import javax.tools.*;
import java.io.*;
import java.nio.file.*;
import java.util.*;
import java.util.stream.*;

public class ImpactOracle {

    public static void main(String[] args) throws Exception {
        Path root = Paths.get(args[0]).toAbsolutePath().normalize();
        List<File> files;
        List<String> options = new ArrayList<>(List.of("-proc:none", "-implicit:none", "-XDshould-stop.ifError=FLOW", "-Xlint:none", "-nowarn", "-Xmaxerrs", "0"));
        if (args.length > 1) {
            try (Stream<Path> list = Files.list(root.resolve(args[1]))) {
                files = list.filter(p -> p.toString().endsWith(".java") && !p.getFileName().toString().equals("package-info.java"))
                        .map(Path::toFile).sorted().collect(Collectors.toList());
            }
            options.addAll(List.of("--patch-module", root.getFileName() + "=" + root));
        } else {
            files = AppRefOracle.sources(root);
        }
        JavaCompiler compiler = ToolProvider.getSystemJavaCompiler();
        StandardJavaFileManager fm = compiler.getStandardFileManager(null, null, null);
        JavacTask task = (JavacTask) compiler.getTask(null, fm, d -> {}, options, null, fm.getJavaFileObjectsFromFiles(files));
        Iterable<? extends CompilationUnitTree> units = task.parse();
        task.analyze();
        Trees trees = Trees.instance(task);
        Types types = task.getTypes();
        Elements elements = task.getElements();
        RefOracle.types = types;
        RefOracle.elements = elements;
        PrintStream out = new PrintStream(new BufferedOutputStream(System.out), false);
        List<ExecutableElement> methods = new ArrayList<>();
        Map<ExecutableElement, String> anonymous = new HashMap<>();
        for (CompilationUnitTree unit : units) {
            String path = root.relativize(Paths.get(unit.getSourceFile().toUri())).toString();
            LineMap lines = unit.getLineMap();
            new TreePathScanner<Void, Void>() {
                boolean erroneous(TypeMirror t) {
                    return AppRefOracle.erroneous(t);
                }

                boolean argsErroneous(List<? extends ExpressionTree> args) {
                    return AppRefOracle.argsErroneous(trees, getCurrentPath(), args);
                }

                boolean overloadErroneous(ExecutableElement m) {
                    return AppRefOracle.overloadErroneous(m);
                }

                /** The member whose code this is: the outermost method, constructor or field
                 * around the current node whose class is named; an initializer's class. */
                String holder() {
                    String found = null;
                    for (TreePath p = getCurrentPath(); p != null; p = p.getParentPath()) {
                        Tree t = p.getLeaf();
                        if (t instanceof MethodTree || (t instanceof VariableTree && p.getParentPath().getLeaf() instanceof ClassTree)) {
                            Element e = trees.getElement(p);
                            String n = e == null ? null : RefOracle.name(e);
                            if (n != null) found = n;
                        } else if (t instanceof BlockTree && p.getParentPath().getLeaf() instanceof ClassTree c && found == null) {
                            Element e = trees.getElement(p.getParentPath());
                            String n = e == null ? null : RefOracle.name(e);
                            if (n != null) found = n;
                        }
                        if (t instanceof ClassTree) {
                            Element e = trees.getElement(p);
                            // A named class's member holds what is inside it: stop at the first.
                            if (found != null && e != null && RefOracle.name(e) != null) return found;
                        }
                    }
                    return found;
                }

                void edge(Element target, String kind, long line) {
                    if (target == null || trees.getPath(target) == null) return;
                    String to = RefOracle.name(target);
                    String from = holder();
                    if (to == null || from == null || from.equals(to)) return;
                    out.println("E\t" + from + "\t" + to + "\t" + kind + "\t" + path + ":" + line);
                }

                void skip(String name) {
                    String from = holder();
                    if (from != null) out.println("S\t" + from + "\t" + name);
                }

                long line(Tree t) {
                    return lines.getLineNumber(trees.getSourcePositions().getStartPosition(unit, t));
                }

                /** `a.B#m.$`: what is declared without a name inside the holder `a.B#m(..)`. */
                String nameless() {
                    String h = holder();
                    return h == null ? null : h.replaceAll("\\(.*", "") + ".$";
                }

                @Override
                public Void visitMethod(MethodTree node, Void v) {
                    Element e = trees.getElement(getCurrentPath());
                    if (e instanceof ExecutableElement m && e.getKind() == ElementKind.METHOD) {
                        if (RefOracle.name(e) != null) {
                            methods.add(m);
                            out.println("M\t" + RefOracle.name(e) + "\t" + path + ":" + line(node));
                        } else if (e.getEnclosingElement() instanceof TypeElement t && t.getNestingKind() == NestingKind.ANONYMOUS) {
                            String n = nameless();
                            if (n != null) {
                                methods.add(m);
                                anonymous.put(m, n);
                                out.println("E\t" + holder() + "\t" + n + "\tcontain\t" + path + ":" + line(node));
                            }
                        }
                    }
                    return super.visitMethod(node, v);
                }

                @Override
                public Void visitLambdaExpression(LambdaExpressionTree node, Void v) {
                    implemented(node);
                    return super.visitLambdaExpression(node, v);
                }

                /** A lambda or method reference implements its functional interface's method. */
                void implemented(Tree node) {
                    TypeMirror t = trees.getTypeMirror(getCurrentPath());
                    String n = nameless();
                    if (n == null) return;
                    // An intersection cast (`(Comparator<T> & Serializable) (a, b) -> ..`): each bound.
                    List<? extends TypeMirror> bounds = t instanceof IntersectionType i ? i.getBounds() : List.of(t);
                    for (TypeMirror b : bounds) {
                        // `?`: a type javac could not give (a class of a missing jar).
                        String shown = b.getKind() == TypeKind.ERROR || !(b instanceof DeclaredType bd) ? "?" : ((TypeElement) bd.asElement()).getQualifiedName().toString();
                        out.println("L\t" + n + "\t" + shown + "\t" + path + ":" + line(node));
                    }
                    if (!(t instanceof DeclaredType d)) return;
                    List<String> abstracts = new ArrayList<>();
                    Deque<TypeMirror> todo = new ArrayDeque<>(List.of(d));
                    Set<Element> seen = new HashSet<>();
                    while (!todo.isEmpty()) {
                        TypeMirror s = todo.pop();
                        if (!(s instanceof DeclaredType sd) || !seen.add(sd.asElement())) continue;
                        for (Element o : sd.asElement().getEnclosedElements()) {
                            if (o.getKind() == ElementKind.METHOD && o.getModifiers().contains(Modifier.ABSTRACT)) {
                                abstracts.add(trees.getPath(o) != null ? RefOracle.name(o) : null);
                            }
                        }
                        todo.addAll(types.directSupertypes(s));
                    }
                    if (abstracts.size() == 1 && abstracts.get(0) != null) {
                        out.println("O\t" + n + "\t" + abstracts.get(0));
                        out.println("E\t" + holder() + "\t" + n + "\tcontain\t" + path + ":" + line(node));
                    }
                }

                @Override
                public Void visitMethodInvocation(MethodInvocationTree node, Void v) {
                    ExpressionTree select = node.getMethodSelect();
                    if (trees.getSourcePositions().getStartPosition(unit, node) < 0) return super.visitMethodInvocation(node, v);
                    Element e = trees.getElement(getCurrentPath());
                    boolean bad = !(e instanceof ExecutableElement) || argsErroneous(node.getArguments());
                    if (!bad && select instanceof MemberSelectTree ms) {
                        bad = erroneous(trees.getTypeMirror(new TreePath(getCurrentPath(), ms.getExpression())));
                    }
                    if (!bad) bad = overloadErroneous((ExecutableElement) e);
                    String called = select instanceof MemberSelectTree ms ? ms.getIdentifier().toString() : select.toString();
                    if (bad) skip(called);
                    else edge(e, "call", line(node));
                    // The method select's receiver is scanned; its name is not a field use.
                    if (select instanceof MemberSelectTree ms) scan(ms.getExpression(), v);
                    scan(node.getArguments(), v);
                    return null;
                }

                @Override
                public Void visitNewClass(NewClassTree node, Void v) {
                    Element e = trees.getElement(getCurrentPath());
                    String type = node.getIdentifier().toString().replaceAll("<.*", "");
                    type = type.substring(type.lastIndexOf('.') + 1);
                    if (node.getClassBody() == null) {
                        if (!(e instanceof ExecutableElement) || argsErroneous(node.getArguments()) || overloadErroneous((ExecutableElement) e)) skip(type);
                        else edge(e, "new", line(node));
                    }
                    return super.visitNewClass(node, v);
                }

                @Override
                public Void visitMemberReference(MemberReferenceTree node, Void v) {
                    implemented(node);
                    Element e = trees.getElement(getCurrentPath());
                    if (e instanceof ExecutableElement) edge(e, "ref", line(node));
                    return super.visitMemberReference(node, v);
                }

                @Override
                public Void visitIdentifier(IdentifierTree node, Void v) {
                    field(trees.getElement(getCurrentPath()), node);
                    return super.visitIdentifier(node, v);
                }

                @Override
                public Void visitMemberSelect(MemberSelectTree node, Void v) {
                    field(trees.getElement(getCurrentPath()), node);
                    return super.visitMemberSelect(node, v);
                }

                void field(Element e, Tree node) {
                    if (e != null && (e.getKind() == ElementKind.FIELD || e.getKind() == ElementKind.ENUM_CONSTANT)) edge(e, "field", line(node));
                }
            }.scan(unit, null);
        }
        // Overrides: each method against the methods of its class's supertypes, transitively.
        for (ExecutableElement m : methods) {
            TypeElement owner = (TypeElement) m.getEnclosingElement();
            Deque<TypeMirror> todo = new ArrayDeque<>(types.directSupertypes(owner.asType()));
            Set<Element> seen = new HashSet<>();
            while (!todo.isEmpty()) {
                TypeMirror t = todo.pop();
                if (!(t instanceof DeclaredType d) || !seen.add(d.asElement())) continue;
                TypeElement s = (TypeElement) d.asElement();
                if (trees.getPath(s) != null) {
                    for (Element o : s.getEnclosedElements()) {
                        if (o.getKind() == ElementKind.METHOD && o.getSimpleName().equals(m.getSimpleName())
                                && elements.overrides(m, (ExecutableElement) o, owner)) {
                            String n = RefOracle.name(o);
                            String self = anonymous.getOrDefault(m, RefOracle.name(m));
                            if (n != null) out.println("O\t" + self + "\t" + n);
                        }
                    }
                }
                todo.addAll(types.directSupertypes(t));
            }
        }
        out.flush();
    }
}
