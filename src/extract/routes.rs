//! What frameworks make of a file, read from its syntax tree: Spring's annotations
//! (endpoints under HTTP handler methods, entry markers on scheduled jobs and listeners,
//! beans, injection points, configuration keys read by `@Value` and `getProperty`), and
//! Rust web routers (route attributes, and routers assembled in code: axum `.route`/`.nest`
//! and actix-web `web::scope`/`.service`/`.configure` chains), and the members Lombok's
//! annotations generate (accessors, constructors, builders, loggers). The knowledge itself (which
//! annotation or method means what) is data in `grammars/frameworks/`, read by `frameworks`.
//!
//! Part of the extractor (its methods, on its private state). It must not do IO or resolve
//! names: it records endpoints and markers on the file's symbols for the index.

use super::fields::Fields;
use super::*;

impl<'t> Extractor<'t> {
    /// What frameworks make of the file's annotations (`frameworks`): an endpoint symbol
    /// under each HTTP handler method (`POST /order/create`), an entry marker in the
    /// modifiers of a scheduled job or listener (`@Scheduled(cron=...)`). Appended after
    /// every other symbol, so that references keep their symbol indexes.
    pub(super) fn framework_symbols(&self, symbols: &mut Vec<Symbol>, def_symbol: &[Option<usize>]) {
        let mut annotated: Vec<(usize, Vec<frameworks::Annotation>)> = Vec::new();
        let mut fields: Vec<(usize, usize)> = Vec::new();
        for (d, sym) in def_symbol.iter().enumerate() {
            let Some(i) = *sym else { continue };
            let kind = symbols[i].kind;
            if kind == SymbolKind::Field {
                fields.push((d, i));
            }
            // Types, methods, and fields reading configuration (`@Value("${key}")`); a
            // callable's parameters' annotations count as its own (`@Value` on a constructor
            // parameter makes the constructor a reader).
            if kind.is_type() || kind.is_callable() || kind == SymbolKind::Field {
                let node = self.defs[d].node;
                let mut anns = self.annotations(node);
                if kind.is_callable() {
                    if let Some(params) = node.field("parameters") {
                        let mut c = params.walk();
                        for p in params.named_children(&mut c) {
                            for mut a in self.annotations(p) {
                                if frameworks::is_parameter_marker(&a.name) {
                                    anns.push(a);
                                } else if frameworks::qualifiers().contains(&a.name) {
                                    // A qualified parameter names its bean for its own type
                                    // only: `@Qualifier(legacy for OrderService)`.
                                    let ty = p.field("type").map(|t| self.text(t)).unwrap_or("");
                                    let simple = ty.split('<').next().unwrap_or(ty).rsplit('.').next().unwrap_or("").trim();
                                    for (_, v) in a.args.iter_mut() {
                                        if let frameworks::Value::Str(name) = v {
                                            *name = format!("{name} for {simple}");
                                        }
                                    }
                                    anns.push(a);
                                }
                            }
                        }
                    }
                }
                if !anns.is_empty() {
                    annotated.push((i, anns));
                }
            }
        }
        if annotated.is_empty() {
            return;
        }
        // The file's string constants (`String BASE = "/api";`, literals joined with `+`),
        // by simple name and `Type.NAME`: what mapping paths may name. Other initializers (a
        // table of thousands of entries) are not read.
        let mut consts = frameworks::Consts::new();
        for (d, i) in fields {
            let value = self.defs[d]
                .name
                .parent()
                .and_then(|decl| decl.field("value"))
                .filter(|v| matches!(self.kind(*v), "string_literal" | "binary_expression"));
            if let Some(frameworks::Value::Str(text)) = value.map(|v| self.annotation_value(v, 0)) {
                if let Some(owner) = symbols[i].parent.map(|p| symbols[p].name.clone()) {
                    consts.insert(format!("{owner}.{}", symbols[i].name), text.clone());
                }
                consts.insert(symbols[i].name.clone(), text);
            }
        }
        let lookup = |name: &str| consts.get(name).cloned();
        let annotations_of = |i: usize| annotated.iter().find(|(s, _)| *s == i).map(|(_, a)| a.as_slice()).unwrap_or(&[]);
        let mut added: Vec<Symbol> = Vec::new();
        for (i, anns) in &annotated {
            // Bean stereotypes and markers, kept in the modifiers (`@Service @Primary`).
            for marker in frameworks::bean_markers(anns) {
                add_modifier(&mut symbols[*i].modifiers, &marker);
            }
            if symbols[*i].kind != SymbolKind::Method {
                continue;
            }
            if let Some((marker, detail)) = frameworks::entry(anns, &lookup) {
                let marker = if detail.is_empty() { marker } else { format!("{marker}({detail})") };
                add_modifier(&mut symbols[*i].modifiers, &marker);
            }
            let class = symbols[*i].parent.map(annotations_of).unwrap_or(&[]);
            let handler = &symbols[*i];
            // The handler as a handle: `OrderController#detail(long)`.
            let owner = handler.parent.map(|p| format!("{}#", symbols[p].name)).unwrap_or_default();
            let target = format!("{owner}{}({})", handler.name, handler.params.as_deref().unwrap_or(""));
            for e in frameworks::endpoints(class, anns, &lookup) {
                added.push(endpoint_symbol(&e, *i, handler, &target));
            }
        }
        symbols.extend(added);
    }

    /// Lombok (`frameworks::lombok`), for a file that imports from `lombok`: the members a
    /// class's annotations generate become its symbols, at the lines of the fields (or the
    /// class) they come from, their signatures saying which annotation made them.
    pub(super) fn lombok_members(&self, symbols: &mut Vec<Symbol>, def_symbol: &[Option<usize>]) {
        use frameworks::lombok;
        let def_of: HashMap<usize, usize> = def_symbol.iter().enumerate().filter_map(|(d, s)| s.map(|s| (s, d))).collect();
        let classes: Vec<usize> = (0..symbols.len()).filter(|i| symbols[*i].kind == SymbolKind::Class && def_of.contains_key(i)).collect();
        for c in classes {
            let annotations = self.annotations(self.defs[def_of[&c]].node);
            if annotations.is_empty() && !symbols.iter().any(|s| s.parent == Some(c) && s.kind == SymbolKind::Field) {
                continue;
            }
            let mut fields = Vec::new();
            let mut declared = Vec::new();
            for (i, s) in symbols.iter().enumerate().filter(|(_, s)| s.parent == Some(c)) {
                if s.kind.is_callable() {
                    declared.push((s.name.clone(), s.params.clone().unwrap_or_default()));
                }
                let (true, Some(d)) = (s.kind == SymbolKind::Field, def_of.get(&i)) else { continue };
                let node = self.defs[*d].node;
                let Some(ty) = node.field("type") else { continue };
                let words: Vec<&str> = s.modifiers.split(' ').collect();
                let initialized = self.defs[*d].name.parent().is_some_and(|decl| decl.field("value").is_some());
                fields.push(lombok::Field {
                    name: s.name.clone(),
                    written: strip_space(self.text(ty)),
                    erased: self.erased_type(ty, node.start_byte()),
                    returns: s.returns.clone(),
                    is_static: words.contains(&"static"),
                    is_final: words.contains(&"final"),
                    initialized,
                    annotations: self.annotations(node),
                    start_line: s.start_line,
                    end_line: s.end_line,
                });
            }
            let class = lombok::Class { name: symbols[c].name.clone(), annotations, fields, declared, start_line: symbols[c].start_line };
            let mut builder: Option<usize> = None;
            for m in lombok::members(&class) {
                let parent = match m.owner {
                    lombok::Owner::Class => c,
                    lombok::Owner::Builder => match builder {
                        Some(b) => b,
                        None => continue,
                    },
                };
                let sep = if m.kind.is_member() { self.spec.member_separator } else { self.spec.type_separator };
                let visibility = if m.kind == SymbolKind::Field { "private" } else { "public" };
                let mut modifiers = visibility.to_string();
                if m.is_static {
                    add_modifier(&mut modifiers, "static");
                }
                add_modifier(&mut modifiers, "generated");
                let symbol = Symbol {
                    kind: m.kind,
                    qname: format!("{}{sep}{}", symbols[parent].qname, m.name),
                    name: m.name,
                    parent: Some(parent),
                    visibility: visibility.to_string(),
                    modifiers,
                    signature: format!("{}  [generated by {}]", m.signature, m.by),
                    doc: String::new(),
                    start_line: m.start_line,
                    end_line: m.end_line,
                    impl_of: None,
                    returns: m.returns,
                    params: m.params,
                };
                if m.kind == SymbolKind::Class {
                    builder = Some(symbols.len());
                }
                symbols.push(symbol);
            }
        }
    }

    /// Rust route attributes on functions (`#[get("/users/{id}")]`, `frameworks::rust_route`):
    /// an endpoint symbol under each handler.
    pub(super) fn rust_routes(&self, symbols: &mut Vec<Symbol>, def_symbol: &[Option<usize>]) {
        let mut added = Vec::new();
        let (routes, registrations) = self.router_chains(symbols, def_symbol);
        // Where each function of this file is registered: (the function at the top of the
        // file's registrations, the prefix below it). The top one may be nested from another
        // file: its prefix is a placeholder the index fills in (`{=nest:QNAME}`,
        // `frameworks::endpoints`).
        let name_of = |d: usize| def_symbol[d].map(|i| symbols[i].name.as_str()).unwrap_or("");
        let tops = |name: &str| -> Vec<(String, String)> {
            fn go(name: &str, regs: &[Registration], name_of: &dyn Fn(usize) -> String, depth: usize, out: &mut Vec<(String, String)>) {
                let mine: Vec<&Registration> = regs.iter().filter(|r| r.function == name).collect();
                if mine.is_empty() || depth > 4 {
                    out.push((name.to_string(), String::new()));
                    return;
                }
                for r in mine {
                    let mut above = Vec::new();
                    go(&name_of(r.within), regs, name_of, depth + 1, &mut above);
                    for (top, a) in above {
                        let p = (top, frameworks::join_url(&a, &r.prefix));
                        if !out.contains(&p) {
                            out.push(p);
                        }
                    }
                }
            }
            let mut out = Vec::new();
            go(name, &registrations, &|d| name_of(d).to_string(), 0, &mut out);
            out
        };
        // The file's callable of a name (what registrations and tops name).
        let callable = |name: &str| symbols.iter().position(|s| s.kind.is_callable() && s.name == name);
        // `{=nest:crate::api::router}/users`: under wherever another file nests the top function.
        let placed = |top: &str, path: &str| -> String {
            match callable(top) {
                Some(i) => format!("/{{=nest:{}}}{}", symbols[i].qname, frameworks::join_url("", path)),
                None => frameworks::join_url("", path),
            }
        };
        // Functions of other files this file nests (`.nest("/api", api::router())`): a marker
        // on the top function here, `@nests(/api=api::router)`, for the index to read.
        let mut nests: Vec<(usize, String)> = Vec::new();
        for r in registrations.iter().filter(|r| callable(&r.function).is_none()) {
            for (top, q) in tops(name_of(r.within)) {
                if let Some(i) = callable(&top) {
                    let nest = (i, format!("@nests({}={})", frameworks::join_url(&q, &r.prefix), r.path));
                    if !nests.contains(&nest) {
                        nests.push(nest);
                    }
                }
            }
        }
        for r in &routes {
            let within = def_symbol[r.within];
            // The handler: a function of this file by the path's last segment, else the
            // function that registers the route (at the route's line).
            let simple = r.handler.rsplit("::").next().unwrap_or(&r.handler);
            let local: Vec<usize> =
                (0..symbols.len()).filter(|&i| symbols[i].kind == SymbolKind::Function && symbols[i].name == simple).collect();
            let (parent, target, lines) = match (local.as_slice(), within) {
                ([h], _) => (*h, symbols[*h].qname.clone(), (symbols[*h].start_line, symbols[*h].end_line)),
                (_, Some(w)) => (w, r.handler.clone(), (r.line, r.line)),
                _ => continue,
            };
            for (top, prefix) in tops(name_of(r.within)) {
                let e = frameworks::Endpoint { verb: r.verb.clone(), path: placed(&top, &frameworks::join_url(&prefix, &r.path)) };
                let mut sym = endpoint_symbol(&e, parent, &symbols[parent], &target);
                (sym.start_line, sym.end_line) = lines;
                if local.len() != 1 {
                    // Under the function that registers it: that function's doc is not its.
                    sym.doc.clear();
                }
                if !added.iter().any(|a: &Symbol| a.name == sym.name && a.parent == sym.parent) {
                    added.push(sym);
                }
            }
        }
        for (d, sym) in def_symbol.iter().enumerate() {
            let Some(i) = *sym else { continue };
            if !symbols[i].kind.is_callable() {
                continue;
            }
            for attr in self.attributes_before(self.defs[d].node) {
                let path = attr.named_child(0).map(|n| self.text(n));
                let (Some(path), Some(args)) = (path, attr.field("arguments")) else { continue };
                // The string literals of the arguments, each with the name before its `=`.
                let mut values: Vec<(Option<String>, String)> = Vec::new();
                let mut last_ident: Option<String> = None;
                let mut after_eq = false;
                let mut c = args.walk();
                for t in args.children(&mut c) {
                    match self.kind(t) {
                        "identifier" => last_ident = Some(self.text(t).to_string()),
                        "=" => after_eq = true,
                        "string_literal" => {
                            let text = self.text(t);
                            let value = text.strip_prefix('"').and_then(|t| t.strip_suffix('"')).unwrap_or(text).to_string();
                            values.push((if after_eq { last_ident.take() } else { None }, value));
                            after_eq = false;
                        }
                        "," => after_eq = false,
                        _ => {}
                    }
                }
                let handler = &symbols[i];
                // A handler registered under a scope (`web::scope("/api").service(user)`).
                for (top, prefix) in tops(&handler.name) {
                    for mut e in frameworks::rust_route(path, &values) {
                        e.path = placed(&top, &frameworks::join_url(&prefix, &e.path));
                        added.push(endpoint_symbol(&e, i, handler, &handler.qname));
                    }
                }
            }
        }
        for (i, marker) in nests {
            add_modifier(&mut symbols[i].modifiers, &marker);
        }
        symbols.extend(added);
    }

    /// Routes registered in method chains inside this file's functions (axum's
    /// `Router::new().route("/p", get(h))`, actix-web's `web::scope("/api").route(..)`), with
    /// their chain's prefix relative to the function, and the functions registered under a
    /// prefix (`.nest("/api", api())`, `.service(user)`, `.configure(config)`).
    fn router_chains(&self, symbols: &[Symbol], def_symbol: &[Option<usize>]) -> (Vec<ChainRoute>, Vec<Registration>) {
        let mut out = Chains::default();
        for (d, sym) in def_symbol.iter().enumerate() {
            let Some(i) = *sym else { continue };
            if symbols[i].kind != SymbolKind::Function && symbols[i].kind != SymbolKind::Method {
                continue;
            }
            let Some(body) = self.defs[d].node.field("body") else { continue };
            if !frameworks::may_build_router(self.text(body)) {
                continue;
            }
            // Routers bound to a variable and nested later (`let api = Router::new()...;`
            // `.nest("/api", api)`): read where they are nested, not where they are bound.
            let rules = frameworks::rust_router();
            let mut lets: HashMap<String, Node<'t>> = HashMap::default();
            let mut nested_names: HashSet<String> = HashSet::default();
            let mut stack = vec![body];
            while let Some(n) = stack.pop() {
                match self.kind(n) {
                    "function_item" => continue,
                    "let_declaration" => {
                        if let (Some(p), Some(v)) = (n.field("pattern"), n.field("value")) {
                            if self.kind(p) == "identifier" {
                                lets.insert(self.text(p).to_string(), v);
                            }
                        }
                    }
                    "call_expression" => {
                        let method = n.field("function").and_then(|f| f.field("field")).map(|f| self.text(f));
                        if method.is_some_and(|m| rules.nest.iter().chain(&rules.service).any(|r| r == m)) {
                            nested_names.extend(
                                self.call_args(n).iter().filter(|a| self.kind(**a) == "identifier").map(|a| self.text(*a).to_string()),
                            );
                        }
                    }
                    _ => {}
                }
                let mut c = n.walk();
                stack.extend(n.named_children(&mut c));
            }
            lets.retain(|name, _| nested_names.contains(name));
            let deferred: HashSet<usize> = lets.values().map(|v| v.id()).collect();
            out.vars = lets;
            let mut consumed: HashSet<usize> = HashSet::default();
            let mut stack = vec![body];
            while let Some(n) = stack.pop() {
                if self.kind(n) == "function_item" || deferred.contains(&n.id()) {
                    continue;
                }
                if self.kind(n) == "call_expression" && !consumed.contains(&n.id()) {
                    self.chain(n, "", d, &mut out, &mut consumed, 0);
                }
                let mut c = n.walk();
                stack.extend(n.named_children(&mut c));
            }
        }
        (out.routes, out.registrations)
    }

    /// The prefix in effect after a chain expression, registering its routes on the way.
    fn chain(
        &self,
        expr: Node<'t>,
        prefix: &str,
        within: usize,
        out: &mut Chains<'t>,
        consumed: &mut HashSet<usize>,
        depth: usize,
    ) -> String {
        let rules = frameworks::rust_router();
        if depth > 64 {
            return prefix.to_string();
        }
        match self.kind(expr) {
            "call_expression" => {
                consumed.insert(expr.id());
                let args = self.call_args(expr);
                let Some(function) = expr.field("function") else { return prefix.to_string() };
                match self.kind(function) {
                    "field_expression" => {
                        let (Some(recv), Some(field)) = (function.field("value"), function.field("field")) else {
                            return prefix.to_string();
                        };
                        let p = self.chain(recv, prefix, within, out, consumed, depth + 1);
                        let m = self.text(field);
                        if rules.route.iter().any(|r| r == m) {
                            let (path, router) = match args.as_slice() {
                                [path, router, ..] if self.kind(*path) == "string_literal" => (self.string_text(*path), *router),
                                [router] => (String::new(), *router),
                                _ => return p,
                            };
                            for (verb, handler) in self.method_router(router, 0) {
                                let path = frameworks::join_url(&p, &path);
                                out.routes.push(ChainRoute { verb, path, handler, line: line_of(field), within });
                            }
                        } else if rules.route_service.iter().chain(&rules.nest_service).any(|r| r == m) {
                            // A service mounted at a path, or at every path under it.
                            if let [path, service, ..] = args.as_slice() {
                                if self.kind(*path) == "string_literal" {
                                    let mut path = frameworks::join_url(&p, &self.string_text(*path));
                                    if rules.nest_service.iter().any(|r| r == m) {
                                        path = frameworks::join_url(&path, "{*rest}");
                                    }
                                    for (verb, handler) in self.served_by(*service) {
                                        out.routes.push(ChainRoute { verb, path: path.clone(), handler, line: line_of(field), within });
                                    }
                                }
                            }
                        } else if rules.fallback.iter().any(|r| r == m) && !self.is_method_router(recv) {
                            // Every path under the chain's prefix that no route matches (a
                            // method router's own fallback, `get(h).fallback(f)`, serves the
                            // verbs it has no handler for, at its route's path).
                            if let Some(service) = args.first() {
                                let path = frameworks::join_url(&p, frameworks::FALLBACK);
                                for (verb, handler) in self.served_by(*service) {
                                    out.routes.push(ChainRoute { verb, path: path.clone(), handler, line: line_of(field), within });
                                }
                            }
                        } else if rules.nest.iter().any(|r| r == m) {
                            let path = args
                                .first()
                                .filter(|a| self.kind(**a) == "string_literal")
                                .map(|a| self.string_text(*a))
                                .unwrap_or_default();
                            if let Some(inner) = args.last() {
                                self.nested(*inner, &frameworks::join_url(&p, &path), within, out, consumed, depth + 1);
                            }
                        } else if rules.service.iter().any(|r| r == m) {
                            if let Some(inner) = args.first() {
                                self.nested(*inner, &p, within, out, consumed, depth + 1);
                            }
                        }
                        p
                    }
                    "identifier" | "scoped_identifier" => {
                        let name = self.text(function).rsplit("::").next().unwrap_or("");
                        match args.first() {
                            Some(a) if rules.prefix_heads.iter().any(|h| h == name) && self.kind(*a) == "string_literal" => {
                                frameworks::join_url(prefix, &self.string_text(*a))
                            }
                            _ => prefix.to_string(),
                        }
                    }
                    _ => prefix.to_string(),
                }
            }
            "await_expression" | "try_expression" | "parenthesized_expression" => match expr.named_child(0) {
                Some(inner) => self.chain(inner, prefix, within, out, consumed, depth + 1),
                None => prefix.to_string(),
            },
            _ => prefix.to_string(),
        }
    }

    /// Whether a chain starts with a method router (`get(h).post(g)`: a verb function's call).
    fn is_method_router(&self, mut expr: Node<'t>) -> bool {
        for _ in 0..64 {
            if self.kind(expr) != "call_expression" {
                return false;
            }
            let Some(function) = expr.field("function") else { return false };
            match self.kind(function) {
                "field_expression" => match function.field("value") {
                    Some(v) => expr = v,
                    None => return false,
                },
                "identifier" | "scoped_identifier" => {
                    let path = self.text(function);
                    let rules = frameworks::rust_router();
                    let mut segments = path.rsplit("::");
                    let name = segments.next().unwrap_or("");
                    let owner = segments.next().unwrap_or("");
                    return rules.verbs.contains_key(name) || rules.method_router_types.iter().any(|t| t == owner);
                }
                _ => return false,
            }
        }
        false
    }

    /// The verbs and handlers a mounted service serves: a method router's (`get(h)`,
    /// `get_service(ServeDir::new(..))`), else every verb by the service as written.
    fn served_by(&self, service: Node<'t>) -> Vec<(String, String)> {
        let routed = self.method_router(service, 0);
        if routed.is_empty() {
            vec![("ANY".to_string(), self.service_name(service))]
        } else {
            routed
        }
    }

    /// A service or handler as written where it is mounted: a function (`handle_404`,
    /// `api::fallback`), else the call that makes the service (`ServeDir::new`,
    /// `handler.into_service`), a closure `closure`.
    fn service_name(&self, service: Node<'t>) -> String {
        match self.kind(service) {
            "closure_expression" => "closure".to_string(),
            "call_expression" => match service.field("function") {
                // `metrics.into_service()`, `h.with_state(s)`: the handler it is made of.
                Some(f) if self.kind(f) == "field_expression" => match f.field("value") {
                    Some(v) if matches!(self.kind(v), "identifier" | "scoped_identifier") => strip_space(self.text(v)),
                    Some(v) => self.service_name(v),
                    None => strip_space(self.text(f)),
                },
                Some(f) => strip_space(self.text(f)),
                None => strip_space(self.text(service)),
            },
            "generic_function" => service.field("function").map(|f| strip_space(self.text(f))).unwrap_or_default(),
            _ => strip_space(self.text(service)),
        }
    }

    /// What `.nest`/`.service` registers: a chain (its routes under `prefix`), or a function
    /// of this file named by a call or a path (registered under `prefix`).
    fn nested(&self, inner: Node<'t>, prefix: &str, within: usize, out: &mut Chains<'t>, consumed: &mut HashSet<usize>, depth: usize) {
        match self.kind(inner) {
            "call_expression" => {
                let function = inner.field("function");
                match function.map(|f| self.kind(f)) {
                    Some("identifier" | "scoped_identifier") => {
                        let path = strip_space(self.text(function.expect("checked")));
                        let name = path.rsplit("::").next().unwrap_or("").to_string();
                        if frameworks::rust_router().prefix_heads.contains(&name) {
                            self.chain(inner, prefix, within, out, consumed, depth);
                        } else {
                            consumed.insert(inner.id());
                            out.registrations.push(Registration { function: name, path, prefix: prefix.to_string(), within });
                        }
                    }
                    _ => {
                        self.chain(inner, prefix, within, out, consumed, depth);
                    }
                }
            }
            "identifier" if out.vars.contains_key(self.text(inner)) => {
                let value = out.vars[self.text(inner)];
                self.chain(value, prefix, within, out, consumed, depth + 1);
            }
            "identifier" | "scoped_identifier" => {
                let path = strip_space(self.text(inner));
                let name = path.rsplit("::").next().unwrap_or("").to_string();
                out.registrations.push(Registration { function: name, path, prefix: prefix.to_string(), within });
            }
            _ => {}
        }
    }

    /// The verbs and handlers of a method router: `get(h).post(h2)` (axum),
    /// `web::get().to(h)` (actix-web); layers and other calls in between are passed over.
    fn method_router(&self, expr: Node<'t>, depth: usize) -> Vec<(String, String)> {
        let rules = frameworks::rust_router();
        if depth > 32 || self.kind(expr) != "call_expression" {
            return Vec::new();
        }
        let args = self.call_args(expr);
        // The handler as named: `show`, `handlers::show`; `kv_get.layer(..).with_state(..)`
        // is `kv_get`; a closure is `closure`.
        let handler = |a: Option<&Node<'t>>| {
            let mut a = match a {
                Some(a) => *a,
                None => return String::new(),
            };
            loop {
                match self.kind(a) {
                    "closure_expression" => return "closure".to_string(),
                    // `get_user::<Repo>`: the function.
                    "generic_function" => match a.field("function") {
                        Some(f) => a = f,
                        None => break,
                    },
                    "call_expression" => match a.field("function") {
                        Some(f) if self.kind(f) == "field_expression" => match f.field("value") {
                            Some(v) => a = v,
                            None => break,
                        },
                        _ => break,
                    },
                    "reference_expression" | "parenthesized_expression" => {
                        match a.named_child((a.named_child_count() as u32).saturating_sub(1)) {
                            Some(v) => a = v,
                            None => break,
                        }
                    }
                    _ => break,
                }
            }
            strip_space(self.text(a))
        };
        let Some(function) = expr.field("function") else { return Vec::new() };
        match self.kind(function) {
            "field_expression" => {
                let (Some(recv), Some(field)) = (function.field("value"), function.field("field")) else {
                    return Vec::new();
                };
                let m = self.text(field);
                let mut inner = self.method_router(recv, depth + 1);
                if rules.handler_methods.iter().any(|h| h == m) {
                    // `web::get().to(h)`: the verbs before, this handler.
                    let h = handler(args.first());
                    let verbs: Vec<String> = inner.iter().map(|(v, _)| v.clone()).collect();
                    let verbs = if verbs.is_empty() { vec!["ANY".to_string()] } else { verbs };
                    return verbs.into_iter().map(|v| (v, h.clone())).collect();
                }
                if let Some(verb) = rules.verbs.get(m) {
                    inner.push((verb.clone(), handler(args.first())));
                }
                inner
            }
            "identifier" | "scoped_identifier" | "generic_function" => {
                let name = self.text(function).split('<').next().unwrap_or("").rsplit("::").next().unwrap_or("").trim();
                match rules.verbs.get(name) {
                    Some(verb) => vec![(verb.clone(), handler(args.first()))],
                    None => Vec::new(),
                }
            }
            _ => Vec::new(),
        }
    }

    /// A call's arguments, comments left out.
    fn call_args(&self, call: Node<'t>) -> Vec<Node<'t>> {
        let Some(args) = call.field("arguments") else { return Vec::new() };
        let mut c = args.walk();
        args.named_children(&mut c).filter(|n| !self.kind(*n).ends_with("comment")).collect()
    }

    /// A string literal's text without its quotes.
    fn string_text(&self, node: Node<'t>) -> String {
        let text = self.text(node);
        text.strip_prefix('"').and_then(|t| t.strip_suffix('"')).unwrap_or(text).to_string()
    }

    /// The annotations of a declaration that a framework rule names, with their arguments.
    fn annotations(&self, node: Node<'t>) -> Vec<frameworks::Annotation> {
        let mut out = Vec::new();
        let mut cursor = node.walk();
        let Some(modifiers) = node.children(&mut cursor).find(|c| self.kind(*c) == "modifiers") else { return out };
        let mut inner = modifiers.walk();
        for a in modifiers.children(&mut inner) {
            if !self.kind(a).ends_with("annotation") {
                continue;
            }
            let Some(name) = a.field("name").map(|n| self.text(n)) else { continue };
            let name = name.rsplit('.').next().unwrap_or(name);
            if !frameworks::is_known(name) && !frameworks::lombok::is_known(name) {
                continue;
            }
            let mut args = Vec::new();
            if let Some(list) = a.field("arguments") {
                let mut c = list.walk();
                for arg in list.named_children(&mut c) {
                    if self.kind(arg) == "element_value_pair" {
                        if let (Some(k), Some(v)) = (arg.field("key"), arg.field("value")) {
                            args.push((self.text(k).to_string(), self.annotation_value(v, 0)));
                        }
                    } else if !self.kind(arg).ends_with("comment") {
                        args.push(("value".to_string(), self.annotation_value(arg, 0)));
                    }
                }
            }
            out.push(frameworks::Annotation { name: name.to_string(), args });
        }
        out
    }

    /// The marker a call naming a key by its first argument, a string literal, leaves on its
    /// caller: `@Environment.getProperty(order.timeout)`, `(key,default)` when `defaults` and a
    /// second argument gives one; `@SqlSession(ns.id)`.
    pub(super) fn property_key(&self, args: Node<'t>, marker: &str, defaults: bool) -> Option<String> {
        let mut c = args.walk();
        let list: Vec<Node> = args.named_children(&mut c).filter(|n| !self.kind(*n).ends_with("comment")).collect();
        let first = list.first().filter(|n| self.kind(**n) == "string_literal")?;
        let key = self.text(*first).trim_matches('"');
        if key.is_empty() || key.contains(['(', ')', ' ', ',']) {
            return None;
        }
        Some(if defaults && list.len() > 1 { format!("@{marker}({key},default)") } else { format!("@{marker}({key})") })
    }

    /// An annotation argument (or a constant's initializer) as far as the text says it,
    /// followed 48 deep (an initializer of 100,000 `+` operands must not exhaust the stack).
    fn annotation_value(&self, node: Node<'t>, depth: usize) -> frameworks::Value {
        use frameworks::Value;
        if depth > 48 {
            return Value::Other(String::new());
        }
        match self.kind(node) {
            "string_literal" => {
                let text = self.text(node);
                Value::Str(text.strip_prefix('"').and_then(|t| t.strip_suffix('"')).unwrap_or(text).to_string())
            }
            "element_value_array_initializer" | "array_initializer" => {
                let mut c = node.walk();
                Value::List(
                    node.named_children(&mut c)
                        .filter(|n| !self.kind(*n).ends_with("comment"))
                        .map(|n| self.annotation_value(n, depth + 1))
                        .collect(),
                )
            }
            "identifier" | "field_access" | "scoped_identifier" => Value::Name(strip_space(self.text(node))),
            "parenthesized_expression" => match node.named_child(0) {
                Some(inner) => self.annotation_value(inner, depth + 1),
                None => Value::Other(strip_space(self.text(node))),
            },
            "binary_expression" if node.field("operator").is_some_and(|o| self.text(o) == "+") => {
                let (l, r) = (node.field("left"), node.field("right"));
                // A name joined in stays a template (`{=BASE}/x`), put in by `frameworks::substitute`.
                let part = |v: Option<Value>| match v {
                    Some(Value::Str(s)) => Some(s),
                    Some(Value::Name(n)) => Some(format!("{{={n}}}")),
                    _ => None,
                };
                match (part(l.map(|n| self.annotation_value(n, depth + 1))), part(r.map(|n| self.annotation_value(n, depth + 1)))) {
                    (Some(a), Some(b)) => Value::Str(a + &b),
                    _ => Value::Other(strip_space(self.text(node))),
                }
            }
            _ => Value::Other(strip_space(self.text(node))),
        }
    }
}

/// A route a method chain registers: its path relative to the function the chain is in.
/// A route a method chain registers: its path relative to the function the chain is in.
struct ChainRoute {
    verb: String,
    path: String,
    /// The handler as written (`show`, `handlers::show`, `closure`).
    handler: String,
    line: u32,
    /// The def of the function the chain is in.
    within: usize,
}

/// A function registered under a prefix by a chain in another function (`.nest("/api", api())`).
struct Registration {
    /// Its name, and its path as written (`api::router`).
    function: String,
    path: String,
    prefix: String,
    within: usize,
}

#[derive(Default)]
struct Chains<'t> {
    routes: Vec<ChainRoute>,
    registrations: Vec<Registration>,
    /// The function's variables bound to a router that is nested later, by name.
    vars: HashMap<String, Node<'t>>,
}

/// An endpoint under its handler. A path naming constants this file does not define keeps
/// its template in the modifiers (`template(GET /{=Paths.ORDER}/list)`): the index puts the
/// repository's constants in (`frameworks::endpoints`).
impl<'t> Extractor<'t> {
    /// A Java call that requests one of the application's URLs (`frameworks::url_call`:
    /// MockMvc's `get("/owners/{ownerId}", 1)`, `restTemplate.getForObject("/x", ..)`,
    /// `client.get().uri("/x")`), as a reference of its own: `VERB /path` on the URL
    /// receiver, which the resolver gives to the handler serving it.
    pub(super) fn url_reference(&self, call: &Reference, name: Node<'t>) -> Option<Reference> {
        if !frameworks::is_url_call_name(&call.name) {
            return None;
        }
        let receiver = match &call.receiver {
            Receiver::Implicit => "",
            Receiver::Type(t) => t.as_str(),
            Receiver::Unknown => "?",
        };
        let invocation = name.parent()?;
        let previous =
            invocation.field("object").filter(|o| self.kind(*o) == "method_invocation").and_then(|o| o.field("name")).map(|n| self.text(n));
        let verb = frameworks::url_call(&call.name, receiver, previous)?;
        let first = *self.call_args(invocation).first()?;
        let frameworks::Value::Str(url) = self.annotation_value(first, 0) else { return None };
        let path = url.split(['?', '#']).next().unwrap_or("");
        if !path.starts_with('/') {
            return None;
        }
        let mut reference = Reference::new(RefKind::Calls, format!("{verb} {path}"), call.line, call.enclosing);
        reference.receiver = Receiver::Type(crate::model::URL_RECEIVER.to_string());
        Some(reference)
    }
}

fn endpoint_symbol(e: &frameworks::Endpoint, parent: usize, handler: &Symbol, target: &str) -> Symbol {
    let template = e.name();
    let name = frameworks::display(&template);
    Symbol {
        kind: SymbolKind::Endpoint,
        signature: format!("{name} -> {target}"),
        name: name.clone(),
        qname: name,
        parent: Some(parent),
        visibility: "public".into(),
        modifiers: if template.contains("{=") { format!("template({template})") } else { String::new() },
        doc: handler.doc.clone(),
        start_line: handler.start_line,
        end_line: handler.end_line,
        impl_of: None,
        returns: None,
        params: None,
    }
}
