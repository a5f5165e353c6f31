//! Receiver and expression typing: what a call is made on (`Receiver`: a type, a chain
//! `Owner#method()` the resolver follows through return types, implicit, or unknown; Java's
//! unnamed superclass, `Object` or `Enum`, for `super.m()` and `hashCode()`), and
//! the static type of a Java argument as far as the file tells it, for overload
//! resolution. Chains and nested operands are followed at most `MAX_CHAIN` deep.
//!
//! Methods of the extractor. It must not make references, resolve names to symbols (it
//! writes what the resolver will look up), or do IO.

use super::fields::Fields;
use super::*;

/// The most links of a call chain (or nested operands) whose type extraction follows.
const MAX_CHAIN: usize = 48;

impl<'t> Extractor<'t> {
    /// Java: the types of a call's arguments as far as the file tells them (see
    /// `Reference::args`).
    pub(super) fn arg_types(&self, list: Node<'t>, ctx: &Context, symbols: &[Symbol], locals: &Locals<'t>) -> String {
        let mut out = Vec::new();
        let mut cursor = list.walk();
        for arg in list.named_children(&mut cursor) {
            if self.spec.comment_kinds.contains(&self.kind(arg)) {
                continue;
            }
            out.push(self.expr_type(arg, ctx, symbols, locals, 0));
        }
        out.join(",")
    }

    /// The static type of a Java expression where the file alone tells it, else `?`.
    fn expr_type(&self, node: Node<'t>, ctx: &Context, symbols: &[Symbol], locals: &Locals<'t>, depth: usize) -> String {
        let text = self.text(node);
        let unknown = || "?".to_string();
        // Deeply nested operands (`1 + 1 + ... + 1` in generated code) are not followed.
        if depth > MAX_CHAIN {
            return unknown();
        }
        let depth = depth + 1;
        match self.kind(node) {
            "decimal_integer_literal" | "hex_integer_literal" | "octal_integer_literal" | "binary_integer_literal" => {
                if text.ends_with(['l', 'L']) { "long" } else { "int" }.to_string()
            }
            "decimal_floating_point_literal" | "hex_floating_point_literal" => {
                if text.ends_with(['f', 'F']) { "float" } else { "double" }.to_string()
            }
            "true" | "false" => "boolean".to_string(),
            "character_literal" => "char".to_string(),
            "string_literal" | "text_block" => "String".to_string(),
            // A lambda or method reference: some functional interface (`model::LAMBDA_ARG`).
            "lambda_expression" | "method_reference" => crate::model::LAMBDA_ARG.to_string(),
            "null_literal" => "null".to_string(),
            "class_literal" => "Class".to_string(),
            "instanceof_expression" => "boolean".to_string(),
            "this" => {
                let mut cur = ctx.symbol;
                while let Some(i) = cur {
                    if symbols[i].kind.is_type() {
                        return symbols[i].name.clone();
                    }
                    cur = symbols[i].parent;
                }
                unknown()
            }
            "parenthesized_expression" => {
                node.named_child(0).map(|n| self.expr_type(n, ctx, symbols, locals, depth)).unwrap_or_else(unknown)
            }
            "cast_expression" => node.field("type").map(|t| self.erased_type(t, node.start_byte())).unwrap_or_else(unknown),
            "object_creation_expression" => {
                if node.field("arguments").and_then(|a| a.next_named_sibling()).is_some() {
                    // An anonymous class: a subtype of the named type, which is close enough
                    // for applicability but not for specificity; leave it unknown.
                    return unknown();
                }
                node.field("type").map(|t| self.type_path(t)).unwrap_or_else(unknown)
            }
            "array_creation_expression" => {
                let Some(t) = node.field("type") else { return unknown() };
                let dims = self.src[t.end_byte()..node.end_byte()].split('{').next().unwrap_or("").matches('[').count().max(1);
                format!("{}{}", crate::model::last_segment(&self.type_path(t)), "[]".repeat(dims))
            }
            "unary_expression" => match node.field("operator").map(|o| self.text(o)) {
                Some("!") => "boolean".to_string(),
                _ => node.field("operand").map(|n| java::numeric(&self.expr_type(n, ctx, symbols, locals, depth))).unwrap_or_else(unknown),
            },
            "binary_expression" => {
                let op = node.field("operator").map(|o| self.text(o)).unwrap_or("");
                match op {
                    "==" | "!=" | "<" | "<=" | ">" | ">=" | "&&" | "||" => "boolean".to_string(),
                    _ => {
                        let left = node.field("left").map(|n| self.expr_type(n, ctx, symbols, locals, depth)).unwrap_or_else(unknown);
                        let right = node.field("right").map(|n| self.expr_type(n, ctx, symbols, locals, depth)).unwrap_or_else(unknown);
                        if op == "+" && (left == "String" || right == "String") {
                            return "String".to_string();
                        }
                        if matches!(op, "<<" | ">>" | ">>>") {
                            return java::promote(&left, "int");
                        }
                        java::promote(&left, &right)
                    }
                }
            }
            // `c ? a : b`: the branches' type when they agree (or one is `null`).
            "ternary_expression" => {
                let branch =
                    |field: &'static str| node.field(field).map(|n| self.expr_type(n, ctx, symbols, locals, depth)).unwrap_or_else(unknown);
                match (branch("consequence"), branch("alternative")) {
                    (a, b) if a == b => a,
                    (a, n) | (n, a) if n == "null" && !java::NUMERIC.contains(&a.as_str()) && a != "boolean" => a,
                    _ => unknown(),
                }
            }
            // An array's length.
            "field_access"
                if node.field("field").is_some_and(|f| self.text(f) == "length")
                    && node.field("object").is_some_and(|o| self.expr_type(o, ctx, symbols, locals, depth).ends_with("[]")) =>
            {
                "int".to_string()
            }
            // An element of an array whose type is known: `a[i]` of an `int[]` is an `int`.
            "array_access" => match node.field("array").map(|a| self.expr_type(a, ctx, symbols, locals, depth)) {
                Some(t) if t.ends_with("[]") => t[..t.len() - 2].to_string(),
                _ => unknown(),
            },
            "identifier" | "field_access" | "method_invocation" => match self.typed_receiver(node, ctx, symbols, locals) {
                // A bare capitalized name that is no variable here is taken for a type by
                // `receiver`: as a value it is a constant of unknown type.
                Receiver::Type(t) if self.kind(node) == "identifier" && t == text => unknown(),
                // A container's element is no part of its type to overloads (`List<Pet>`).
                Receiver::Type(t) if !t.is_empty() => crate::model::without_element(&t).to_string(),
                _ => unknown(),
            },
            _ => unknown(),
        }
    }

    /// What a call is made on; an array (whose members are those of `Object`) is unknown.
    pub(super) fn receiver(&self, node: Node, ctx: &Context, symbols: &[Symbol], locals: &Locals<'t>) -> Receiver {
        match self.typed_receiver(node, ctx, symbols, locals) {
            Receiver::Type(t) if t.contains("[]") => Receiver::Unknown,
            other => other,
        }
    }

    /// `receiver`, arrays included (`int[]`, `String[][]`).
    pub(super) fn typed_receiver(&self, node: Node, ctx: &Context, symbols: &[Symbol], locals: &Locals<'t>) -> Receiver {
        // A chain of thousands of links (`b().b().b()...`, generated code) would give every
        // link a receiver as long as the chain, and the resolver a recursion as deep: past
        // MAX_CHAIN nested receivers the type is not followed.
        // A test library's identity call (`verify(mock, times(2))`) is the argument it checks.
        if let Some(value) = self.identity_value(node) {
            return self.typed_receiver(value, ctx, symbols, locals);
        }
        let depth = self.receiver_depth.get();
        if depth > MAX_CHAIN {
            return Receiver::Unknown;
        }
        self.receiver_depth.set(depth + 1);
        let receiver = self.typed_receiver_at(node, ctx, symbols, locals);
        self.receiver_depth.set(depth);
        match receiver {
            // Rust: a value whose type is a type parameter in scope here (`self.sink`, a
            // field of type `S`, inside `impl<S: Sink> Core<S>`) has its bound's methods;
            // an unbounded one has none that are known.
            Receiver::Type(t) if self.spec.language == Language::Rust && is_bare_name(&t) => match self.type_param(&t, node.start_byte()) {
                Some("") => Receiver::Unknown,
                Some(bound) => Receiver::Type(bound.to_string()),
                None => Receiver::Type(t),
            },
            other => other,
        }
    }

    /// A receiver written as a bare name: a variable's declared type (`declared`, what the
    /// file's variables say), a type, a Rust function used as a value, or a Java field the
    /// enclosing types inherit.
    fn name_receiver(&self, text: &str, declared: Option<String>, ctx: &Context, symbols: &[Symbol]) -> Receiver {
        if let Some(t) = declared {
            // A parameter of type `Self` (`router: Self`) is of the impl's type.
            if t == "Self" || t.starts_with("Self::") {
                if let Some(own) = self.self_type(ctx, symbols) {
                    return Receiver::Type(replace_self(&t, &own));
                }
            }
            return if t.is_empty() { Receiver::Unknown } else { Receiver::Type(t) };
        }
        if text.chars().next().is_some_and(|c| c.is_uppercase()) {
            return Receiver::Type(text.to_string());
        }
        // Rust: a name no variable declares may be a function used as a value
        // (`handler.into_service()`); the resolver decides (`fn handler`), and
        // `name_references` leaves it unknown where a pattern binds the name.
        if self.spec.language == Language::Rust && text != "self" {
            return Receiver::Type(format!("{}{text}", crate::model::FN_VALUE));
        }
        // Java: a name no variable of this file declares is a field the enclosing
        // types inherit (`baseMapper` of MyBatis-Plus's `ServiceImpl`, a field of a
        // superclass in another file): a chain link the resolver follows.
        if self.spec.language == Language::Java {
            return Receiver::Type(format!("#{text}"));
        }
        Receiver::Unknown
    }

    fn typed_receiver_at(&self, node: Node, ctx: &Context, symbols: &[Symbol], locals: &Locals<'t>) -> Receiver {
        let text = self.text(node);
        if self.spec.language == Language::Java && text == "super" {
            // `super.m()`: the superclass's `m`, never the class's own override; the
            // resolver knows the superclass.
            return Receiver::Type("super".to_string());
        }
        if self.spec.self_receivers.contains(&text) {
            // Rust's `self.m()` is a method of the impl's type; Java's `this.m()` is `m()`.
            return self.self_type(ctx, symbols).map(Receiver::Type).unwrap_or(Receiver::Implicit);
        }
        // The impl's type, when it is declared in this file, scopes its fields.
        let impl_owner = ctx.impl_idx.and_then(|i| {
            let type_name = crate::model::last_segment(&self.impls[i].info.self_type);
            // A type of the file's top level first, else one declared in a function (a
            // test's own struct and its impl).
            symbols
                .iter()
                .position(|s| s.kind.is_type() && s.parent.is_none() && s.name == type_name)
                .or_else(|| symbols.iter().position(|s| s.kind.is_type() && s.name == type_name))
        });
        let pos = node.start_byte();
        let lookup_from = |start: Option<usize>, name: &str| -> Option<String> {
            local_type(locals, symbols, start, name, pos)
                .or_else(|| impl_owner.and_then(|o| locals.get(&(Some(o), name))).map(|t| t.at(pos).to_string()))
        };
        let lookup = |name: &str| lookup_from(ctx.symbol, name);
        // `this.x` / `self.x` is a field: the locals of the method (`Type x = this.x.find()`
        // declares a local of that name) do not hide it, so it is looked up from the type.
        let own_type = || {
            let mut cur = ctx.symbol;
            while let Some(i) = cur.filter(|i| !symbols[*i].kind.is_type()) {
                cur = symbols[i].parent;
            }
            cur
        };
        match self.kind(node) {
            "identifier" => self.name_receiver(text, lookup(text), ctx, symbols),

            // A struct literal's or pattern's type (`Match { start, end }`), `Self` in an impl.
            "type_identifier" | "scoped_type_identifier" | "generic_type_with_turbofish" if self.spec.language == Language::Rust => {
                let path = self.type_path(node);
                match self.self_type(ctx, symbols) {
                    Some(own) => Receiver::Type(replace_self(&path, &own)),
                    None => Receiver::Type(path),
                }
            }
            // `x?`, `&x`, `(x)`, `x.await`, `*x`: what `x` is (`?` unwraps, as return types
            // are kept; a dereference reaches the value a reference or smart pointer holds).
            "try_expression" | "reference_expression" | "parenthesized_expression" | "await_expression" => {
                // `&mut x`: the value, not the `mut`.
                match node.field("value").or_else(|| node.named_child(0)) {
                    Some(inner) => self.typed_receiver(inner, ctx, symbols, locals),
                    None => Receiver::Unknown,
                }
            }
            // `ms[0]`: an element of a container (`ms[1..]`, a range, is none).
            "index_expression" if self.spec.language == Language::Rust => {
                match (node.named_child(0), node.named_child(1).filter(|i| self.kind(*i) != "range_expression")) {
                    (Some(container), Some(_)) => match self.typed_receiver(container, ctx, symbols, locals) {
                        Receiver::Type(t) if !t.ends_with('@') => Receiver::Type(format!("{t}@")),
                        _ => Receiver::Unknown,
                    },
                    _ => Receiver::Unknown,
                }
            }
            // `new Helper(tag).add(...)`: the created type (an anonymous class's members are
            // not symbols, so its own type says as much).
            "object_creation_expression" => match node.field("type") {
                Some(t) => Receiver::Type(self.type_path(t)),
                None => Receiver::Unknown,
            },
            // `"NO".equals(x)`.
            "string_literal" | "text_block" if self.spec.language == Language::Java => Receiver::Type("String".to_string()),
            "unary_expression" if self.spec.language == Language::Rust && text.starts_with('*') => match node.named_child(0) {
                // Through a `Box`/`Arc`/`Rc` written without its argument (an impl's `Self`)
                // the content is not known.
                Some(inner) => match self.typed_receiver(inner, ctx, symbols, locals) {
                    Receiver::Type(t) if self.spec.deref_wrappers.contains(&crate::model::last_segment(&t)) => Receiver::Unknown,
                    other => other,
                },
                None => Receiver::Unknown,
            },
            // A call chain: the receiver is what the inner call returns, written
            // `Owner#method()` (`#method()` for a method of the enclosing types) for the
            // resolver, which knows return types.
            "method_invocation" | "call_expression" => {
                let (object, name) = match self.kind(node) {
                    "method_invocation" => (node.field("object"), node.field("name")),
                    _ => {
                        let function = node.field("function").map(|f| match self.kind(f) {
                            "generic_function" => f.field("function").unwrap_or(f),
                            _ => f,
                        });
                        match function {
                            Some(f) if self.kind(f) == "field_expression" => (f.field("value"), f.field("field")),
                            // A path call (`Searcher::new()`, `make()`): `Owner#name()`, the
                            // owner a type (or module) path, empty for a bare name.
                            Some(f) if matches!(self.kind(f), "identifier" | "scoped_identifier") => {
                                let mut path = normalize_path(self.text(f));
                                if let Some(replacement) = self.self_type(ctx, symbols) {
                                    path = replace_self(&path, &replacement);
                                }
                                let path = self.bound_path(path, f.start_byte());
                                let (owner, name) = path.rsplit_once("::").unwrap_or(("", path.as_str()));
                                return Receiver::Type(format!("{owner}#{name}()"));
                            }
                            _ => return Receiver::Unknown,
                        }
                    }
                };
                let Some(name) = name else { return Receiver::Unknown };
                // `x.unwrap()`, `x.clone()`: the chain goes on with `x`'s type.
                if self.spec.transparent_calls.contains(&self.text(name)) {
                    return match object {
                        Some(o) => self.typed_receiver(o, ctx, symbols, locals),
                        None => Receiver::Unknown,
                    };
                }
                let inner = match object {
                    None => Receiver::Implicit,
                    Some(o) => self.receiver(o, ctx, symbols, locals),
                };
                match inner {
                    Receiver::Implicit => Receiver::Type(format!("#{}()", self.text(name))),
                    Receiver::Type(t) => Receiver::Type(format!("{t}#{}()", self.text(name))),
                    Receiver::Unknown => Receiver::Unknown,
                }
            }
            "unit_expression"
            | "string_literal"
            | "raw_string_literal"
            | "boolean_literal"
            | "type_cast_expression"
            | "macro_invocation"
                if self.spec.language == Language::Rust =>
            {
                self.rust_value_receiver(node, ctx, symbols)
            }
            "field_access" | "field_expression" | "scoped_identifier" => {
                let object = node.field("object").or_else(|| node.field("value"));
                let field = node.field("field").or_else(|| node.field("name"));
                match (object, field) {
                    // `Outer.this`
                    (Some(o), Some(f)) if self.spec.self_receivers.contains(&self.kind(f)) => Receiver::Type(normalize_path(self.text(o))),
                    (Some(o), Some(f)) if self.spec.self_receivers.contains(&self.text(o)) => {
                        lookup_from(own_type(), self.text(f)).filter(|t| !t.is_empty()).map(Receiver::Type).unwrap_or(Receiver::Unknown)
                    }
                    // A field of something whose type is known (`p.parent`, `Foo.BAR`,
                    // `Outer.Inner`): `Owner#field`, resolved through the field's declared
                    // type, or a member type of that name.
                    (Some(o), Some(f)) if self.kind(node) != "scoped_identifier" && self.kind(f).ends_with("identifier") => {
                        match self.receiver(o, ctx, symbols, locals) {
                            // A function has no fields: a name no variable declares is unknown here.
                            Receiver::Type(t) if t.starts_with(crate::model::FN_VALUE) => Receiver::Unknown,
                            Receiver::Type(t) => Receiver::Type(format!("{t}#{}", self.text(f))),
                            _ if text.chars().next().is_some_and(|c| c.is_uppercase()) && !text.contains('(') => {
                                Receiver::Type(normalize_path(text))
                            }
                            _ => Receiver::Unknown,
                        }
                    }
                    _ if text.chars().next().is_some_and(|c| c.is_uppercase()) && !text.contains('(') => {
                        Receiver::Type(normalize_path(text))
                    }
                    _ => Receiver::Unknown,
                }
            }
            _ => Receiver::Unknown,
        }
    }
}

impl<'t> Extractor<'t> {
    /// The argument a Java call chain's value is, by the identity rules of the language's
    /// elements (`verify(mock, times(2))` is `mock`; `doReturn(x).when(mock)` is `mock`),
    /// when the chain's first call is bare or on one of the rules' owners (`Mockito.verify`).
    fn identity_value(&self, node: Node<'t>) -> Option<Node<'t>> {
        let elements = self.spec.elements();
        if elements.identity_longest == 0 || self.kind(node) != "method_invocation" {
            return None;
        }
        // The chain's last calls, as many as the longest rule names (a chain of thousands of
        // links, generated code, is not walked at each link), innermost first.
        let mut calls = vec![node];
        let mut object = node.field("object");
        while let Some(o) = object.filter(|o| self.kind(*o) == "method_invocation" && calls.len() < elements.identity_longest) {
            calls.push(o);
            object = o.field("object");
        }
        calls.reverse();
        let names: Vec<&str> = calls.iter().map(|c| c.field("name").map_or("", |n| self.text(n))).collect();
        let (start, at) = elements.identity_argument(&names)?;
        // The rule's first call is bare (a static import) or on an owner, never on a value.
        let on = calls[start].field("object");
        if !on.is_none_or(|o| elements.identity_owners.iter().any(|owner| owner == self.text(o))) {
            return None;
        }
        let arguments = calls[at].field("arguments")?;
        let mut cursor = arguments.walk();
        let first = arguments.named_children(&mut cursor).find(|a| !self.spec.comment_kinds.contains(&self.kind(*a)));
        first
    }

    /// Rust values typed by their own syntax: literals of types outside the repository,
    /// whose impls the repository may have (`().into_response()`, `"OK".into_response()`),
    /// a cast's type (`(self as &Event<'_>).is_root()`), and a macro's value
    /// (`info_span!("x").entered()`: what the macro's rules give, `path!`, which the
    /// resolver knows).
    fn rust_value_receiver(&self, node: Node, ctx: &Context, symbols: &[Symbol]) -> Receiver {
        match self.kind(node) {
            "unit_expression" => Receiver::Type("()".to_string()),
            "string_literal" | "raw_string_literal" => Receiver::Type("str".to_string()),
            "boolean_literal" => Receiver::Type("bool".to_string()),
            "type_cast_expression" => match node.field("type") {
                Some(t) => {
                    let path = self.type_path(t);
                    match self.self_type(ctx, symbols) {
                        Some(own) => Receiver::Type(replace_self(&path, &own)),
                        None => Receiver::Type(path),
                    }
                }
                None => Receiver::Unknown,
            },
            "macro_invocation" => match node.field("macro") {
                Some(path) => Receiver::Type(format!("{}!", normalize_path(self.text(path)))),
                None => Receiver::Unknown,
            },
            _ => Receiver::Unknown,
        }
    }

    /// Java: the subject of a call made on the superclass a type has without naming it
    /// (`model::JAVA_OBJECT`, `JAVA_ENUM`): `super(..)`, `super.m(..)`, and a call without a
    /// receiver (or on `this`) of a method that superclass gives every such type
    /// (`hashCode()`, `this.getClass()`). None for other calls, and where the type names its
    /// superclass.
    pub(super) fn implicit_super_subject(&self, name: Node<'t>, receiver: Option<Node<'t>>, called: &str) -> Option<String> {
        let on_super = match receiver {
            None => called == "super",
            Some(recv) => self.text(recv) == "super",
        };
        let own = receiver.is_none_or(|r| self.text(r) == "this");
        // Walked up to the type only for such a call (`Node::parent` searches down from the
        // root: every call of a 20,000-link chain would take long).
        if !on_super && (!own || !implicit_member(crate::model::JAVA_ENUM, called)) {
            return None;
        }
        let decl = self.innermost_type_declaration(name)?;
        let written = decl.field("superclass");
        let sup = match (self.kind(decl), written) {
            // `super(..)`, `super.m()` in a class that names its superclass: that name, as
            // written (the resolver finds it outside when the repository does not declare it).
            ("class_declaration", Some(written)) => {
                return if on_super { Some(self.type_path(written.named_child(0)?)).filter(|p| !p.is_empty()) } else { None };
            }
            ("class_declaration" | "interface_declaration", None) => crate::model::JAVA_OBJECT,
            ("enum_declaration", _) => crate::model::JAVA_ENUM,
            _ => return None,
        };
        (on_super || implicit_member(sup, called)).then(|| sup.to_string())
    }

    /// The innermost type declaration around `node`; None inside an anonymous class or an
    /// enum constant's body (their superclass is the type they are made from).
    fn innermost_type_declaration(&self, node: Node<'t>) -> Option<Node<'t>> {
        let mut up = node.parent();
        while let Some(n) = up {
            match self.kind(n) {
                "class_declaration"
                | "interface_declaration"
                | "enum_declaration"
                | "record_declaration"
                | "annotation_type_declaration" => return Some(n),
                "class_body" if n.parent().is_some_and(|p| matches!(self.kind(p), "object_creation_expression" | "enum_constant")) => {
                    return None
                }
                _ => up = n.parent(),
            }
        }
        None
    }
}

/// Whether `name` is a method every type whose implicit superclass is `sup` has from it.
fn implicit_member(sup: &str, name: &str) -> bool {
    crate::model::java_object_method(name)
        || (sup == crate::model::JAVA_ENUM && matches!(name, "name" | "ordinal" | "compareTo" | "getDeclaringClass"))
}

/// A type written as one plain name (`S`, `Sink`), no path, call or element.
fn is_bare_name(t: &str) -> bool {
    !t.is_empty() && t.bytes().all(|b| b.is_ascii_alphanumeric() || b == b'_')
}
