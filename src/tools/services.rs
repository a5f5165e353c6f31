//! The service graph (`level=service`): beans and the injections between them, built from
//! what the index holds. A bean is a class carrying a stereotype (`@Service`, ...: the
//! markers the extractor keeps in modifiers, `frameworks::stereotypes`), or an annotation of
//! the repository that carries one, a Spring Data repository interface (`extends
//! JpaRepository<..>`, implemented by the framework), or what a `@Bean` method of a bean returns (the method
//! stands for it). An injection is a type its constructors, fields or `@Bean` method
//! parameters name: a bean itself, or an interface or superclass, which reaches the beans
//! that implement it (the `@Primary` one when it is marked, else each candidate); and a
//! `@Bean` method's call of another (the configuration's proxy returns that bean). What a
//! method's body makes is no injection. A `@Bean` method's row shows its class's conditions.
//!
//! Owns the bean rows handed to `graph::Graph::build`. It must not read source text.

use std::collections::{HashMap, HashSet};
use std::sync::Arc;

use super::{Atlas, ToolError};
use crate::frameworks::{has_marker, marker_value, marker_values};
use crate::graph::Node;
use crate::model::{EdgeRow, SymbolRow};
use crate::model::{RefKind, SymbolKind};
use crate::store::{Store, SymbolInfo};

/// Whether a bean answers to a name: a qualifier or stereotype value of its own, or its
/// default bean name (class name with a lower-case first letter; a `@Bean` method's name).
fn bean_named(bean: &SymbolInfo, name: &str, qualifiers: &[String]) -> bool {
    let declared = qualifiers.iter().chain(crate::frameworks::stereotypes()).any(|q| marker_value(&bean.modifiers, q) == Some(name));
    let mut chars = bean.name.chars();
    let default = match chars.next() {
        Some(c) if bean.kind.is_type() => c.to_lowercase().chain(chars).collect::<String>(),
        _ => bean.name.clone(),
    };
    declared || default == name
}

/// The beans and the injections between them.
pub(super) struct Beans {
    /// Bean node (a class, or a `@Bean` method) -> its symbol.
    pub beans: HashMap<i64, SymbolInfo>,
    pub edges: Vec<EdgeRow>,
    /// Classes a `@Bean` method creates: live, though the method is their node.
    pub created: HashSet<i64>,
    /// Stereotyped classes no component scan reaches -> the packages scanned (`com.acme`).
    pub outside_scan: HashMap<i64, String>,
}

impl Beans {
    /// Whether Spring creates instances of a class: a bean, or what a `@Bean` method creates.
    pub fn live(&self, class: i64) -> bool {
        self.beans.contains_key(&class) || self.created.contains(&class)
    }
}

impl Atlas {
    pub(super) fn beans(&self, store: &Store) -> Result<Beans, ToolError> {
        use crate::frameworks::{bean_methods, interface_stereotypes, package_scans, stereotypes};
        let carries = |s: &SymbolInfo, markers: &[String]| markers.iter().any(|m| has_marker(&s.modifiers, m));
        // One scan of the modifiers for every marker a bean is known by.
        let markers = stereotypes().iter().chain(interface_stereotypes()).chain(package_scans()).chain(bean_methods());
        let markers =
            markers.map(String::as_str).chain(crate::frameworks::scans()).chain(crate::frameworks::imports().iter().map(String::as_str));
        let marked = store.symbols_with_markers(markers)?;
        // Annotations of the repository that carry a stereotype make their users beans.
        let meta: Vec<i64> =
            marked.iter().filter(|s| s.kind == SymbolKind::Annotation && carries(s, stereotypes())).map(|s| s.id).collect();
        let is_class = |s: &SymbolInfo| s.kind.is_type() && s.kind != SymbolKind::Annotation && s.kind != SymbolKind::Interface;
        let mut beans: HashMap<i64, SymbolInfo> =
            marked.iter().filter(|s| is_class(s) && carries(s, stereotypes())).map(|s| (s.id, s.clone())).collect();
        if !meta.is_empty() {
            for s in store.symbols_by_ids(&store.annotated_by(&meta)?)?.into_iter().filter(is_class) {
                beans.insert(s.id, s);
            }
        }
        // Component scanning: a stereotyped class outside every scanned package is no bean
        // (unless imported or auto-configured).
        let outside_scan = self.outside_scan(store, &marked, &beans)?;
        beans.retain(|id, _| !outside_scan.contains_key(id));
        // Interfaces made beans by an annotation of their own (`@Mapper`) or by a package
        // scan of a bean (`@MapperScan("com.acme.mapper")`).
        for s in marked.iter().filter(|s| s.kind == SymbolKind::Interface && carries(s, interface_stereotypes())) {
            beans.insert(s.id, s.clone());
        }
        // Spring Data repositories: interfaces extending `Repository` and its kin, which the
        // framework implements (not a base interface marked `@NoRepositoryBean`).
        let (repositories, no_bean) = crate::frameworks::repository_types();
        if !repositories.is_empty() {
            for s in store.interfaces_extending_outside(repositories)? {
                if !no_bean.is_some_and(|m| has_marker(&s.modifiers, m)) {
                    beans.insert(s.id, s);
                }
            }
        }
        let mut packages: Vec<String> = Vec::new();
        for s in &marked {
            for scan in package_scans() {
                for list in marker_values(&s.modifiers, scan) {
                    packages.extend(list.split(',').map(|p| p.trim().to_string()).filter(|p| !p.is_empty()));
                }
            }
        }
        packages.sort();
        packages.dedup();
        for package in &packages {
            for s in store.interfaces_in_package(package)? {
                beans.insert(s.id, s);
            }
        }
        // `@Bean` methods (of a configuration, or of a base class one extends): the method
        // stands for the bean it returns.
        let mut provided: Vec<(i64, String)> = Vec::new();
        let in_no_bean = |m: &SymbolInfo| m.parent.is_some_and(|p| outside_scan.contains_key(&p));
        for m in marked.iter().filter(|m| m.kind == SymbolKind::Method && carries(m, bean_methods()) && !in_no_bean(m)) {
            provided.push((m.id, store.returns_of(m.id)?.unwrap_or_default()));
            beans.insert(m.id, m.clone());
        }
        // A class a `@Bean` method creates (`new JwtAuthenticationTokenFilter()`), carrying no
        // stereotype, is the bean that method stands for: its `@Autowired` fields and setters
        // are injection points of the method's node (its constructor is the method's call,
        // not an injection).
        let mut created: HashMap<i64, i64> = HashMap::new();
        let bean_methods: Vec<i64> = provided.iter().map(|(m, _)| *m).collect();
        let made = if bean_methods.is_empty() { Vec::new() } else { store.reference_targets(&bean_methods)? };
        for m in &bean_methods {
            for r in made.iter().filter(|r| r.source == Some(*m) && r.kind == RefKind::Instantiates && r.target > 0) {
                let Some(c) = store.symbol(r.target)? else { continue };
                let class = match c.kind {
                    SymbolKind::Constructor => match c.parent {
                        Some(p) => store.symbol(p)?,
                        None => None,
                    },
                    _ => Some(c),
                };
                if let Some(class) = class.filter(|k| is_class(k) && !beans.contains_key(&k.id)) {
                    created.entry(class.id).or_insert(*m);
                }
            }
        }
        // What each bean implements or extends, transitively: who can be injected where an
        // interface or superclass is asked for.
        let mut supers: HashMap<i64, Vec<i64>> = HashMap::new();
        let mut frontier: Vec<i64> = beans.keys().copied().collect();
        let mut known: HashSet<i64> = frontier.iter().copied().collect();
        while !frontier.is_empty() {
            let rows = store.supertype_edges(&frontier)?;
            frontier.clear();
            for (sub, sup) in rows {
                supers.entry(sub).or_default().push(sup);
                if known.insert(sup) {
                    frontier.push(sup);
                }
            }
        }
        let mut providers: HashMap<i64, Vec<i64>> = HashMap::new();
        for &b in beans.keys() {
            let mut stack = vec![b];
            let mut seen = HashSet::new();
            while let Some(t) = stack.pop() {
                if !seen.insert(t) {
                    continue;
                }
                providers.entry(t).or_default().push(b);
                stack.extend(supers.get(&t).into_iter().flatten().copied());
            }
        }
        // A `@Bean` method provides its return type (by simple name, when one type has it),
        // or a type outside the repository (`PasswordEncoder passwordEncoder()`), keyed by its
        // external id negated, as `injection_points` names those.
        for (m, returns) in &provided {
            let simple = returns.rsplit(['.', ':']).next().unwrap_or(returns);
            match store.types_named(simple)?.as_slice() {
                [t] => providers.entry(*t).or_default().push(*m),
                [] if !simple.is_empty() => {
                    let outside = store.externals_by_simple_name(simple, 8)?;
                    let exact: Vec<i64> =
                        outside.iter().filter(|(_, q)| q.rsplit(['.', ':']).next() == Some(simple)).map(|(id, _)| *id).collect();
                    if let [e] = exact.as_slice() {
                        providers.entry(-e).or_default().push(*m);
                    }
                }
                _ => {}
            }
        }
        for list in providers.values_mut() {
            list.sort_unstable();
            list.dedup();
        }
        let primary = crate::frameworks::primary();
        let mut edges = Vec::new();
        let sources: Vec<i64> = beans.keys().chain(created.keys()).copied().collect();
        let qualifiers = crate::frameworks::qualifiers();
        let mut target_names: HashMap<i64, String> = HashMap::new();
        let injecting = crate::frameworks::injecting_methods();
        for (bean, file, target, line, point, kind, signature) in store.injection_points(&sources, injecting)? {
            let bean = match created.get(&bean) {
                Some(_) if kind == "constructor" || !injecting.iter().any(|m| has_marker(&point, m)) => continue,
                Some(method) => *method,
                None => bean,
            };
            if kind == "field" && !crate::frameworks::field_injected(&point, beans.get(&bean).map(|b| b.modifiers.as_str()).unwrap_or("")) {
                continue;
            }
            let Some(found) = providers.get(&target) else { continue };
            let mut chosen: Vec<i64> = found.iter().copied().filter(|b| *b != bean).collect();
            // `@Qualifier("legacy")` at the injection point: the bean qualified so, or named
            // so (`@Service("legacy")`, or its class name with a lower-case first letter).
            // A constructor parameter's qualifier names its type (`legacy for OrderService`).
            let target_name = match target_names.get(&target) {
                Some(n) => n.clone(),
                None => {
                    let n = if target < 0 {
                        store.external_qname(-target)?.map(|q| q.rsplit(['.', ':']).next().unwrap_or("").to_string()).unwrap_or_default()
                    } else {
                        store.symbols_by_ids(&[target])?.into_iter().next().map(|t| t.name).unwrap_or_default()
                    };
                    target_names.insert(target, n.clone());
                    n
                }
            };
            // A method's injection points are its parameters' types: a `@Bean` method's local
            // `new ObjectMapper()` injects no `ObjectMapper` bean.
            // (`List<Handler> handlers` names `Handler`: every such bean is injected.)
            let parameters = signature.split_once('(').map_or("", |(_, rest)| rest);
            if kind == "method" && !parameters.split(|c: char| !(c.is_alphanumeric() || c == '_' || c == '$')).any(|w| w == target_name) {
                continue;
            }
            let wanted = qualifiers.iter().flat_map(|q| marker_values(&point, q)).find_map(|v| match v.split_once(" for ") {
                Some((name, ty)) => (ty == target_name).then_some(name),
                None => Some(v),
            });
            let named: Vec<i64> = match &wanted {
                Some(name) => chosen.iter().copied().filter(|b| bean_named(&beans[b], name, qualifiers)).collect(),
                None => Vec::new(),
            };
            let primaries: Vec<i64> = chosen.iter().copied().filter(|b| has_marker(&beans[b].modifiers, primary)).collect();
            if !named.is_empty() {
                chosen = named;
            } else if primaries.len() == 1 && chosen.len() > 1 {
                chosen = primaries;
            }
            for to in chosen {
                edges.push(EdgeRow { file, source: Some(bean), target: Some(to), external: None, kind: RefKind::Injects, count: 1, line });
            }
        }
        // A `@Bean` method calling another (`redisSerializer()` in `redisCacheManager`): in a
        // `@Configuration` class the call returns that bean, which is a dependency on it.
        let methods: Vec<i64> = beans.iter().filter(|(_, b)| b.kind == SymbolKind::Method).map(|(id, _)| *id).collect();
        for (from, to, file, line) in store.calls_among(&methods)? {
            if from != to && !edges.iter().any(|e: &EdgeRow| e.source == Some(from) && e.target == Some(to)) {
                edges.push(EdgeRow { file, source: Some(from), target: Some(to), external: None, kind: RefKind::Injects, count: 1, line });
            }
        }
        Ok(Beans { beans, edges, created: created.into_keys().collect(), outside_scan })
    }

    /// The words of Spring Boot's auto-configuration files (`META-INF/spring.factories`, ...):
    /// the qualified names of the classes they list, read once per index generation.
    fn auto_configured(&self, store: &Store) -> Result<Arc<HashSet<String>>, ToolError> {
        super::per_generation(store, &self.auto_configured, || {
            let files = crate::frameworks::auto_configuration_files();
            let mut names = HashSet::new();
            for (_, text) in self.read_text_files(|rel| files.iter().any(|f| rel.ends_with(f.as_str())))? {
                names.extend(
                    text.split(|c: char| !(c.is_alphanumeric() || c == '.' || c == '_' || c == '$'))
                        .filter(|w| !w.is_empty())
                        .map(str::to_string),
                );
            }
            Ok(names)
        })
    }

    /// The stereotyped classes no component scan of the repository reaches, with the
    /// packages scanned. A scan annotation names its packages, or scans its class's own;
    /// with no scan annotation (or one by classes, `*`), every class is reached. A class
    /// `@Import`ed, or listed in an auto-configuration file, is reached wherever it is.
    fn outside_scan(
        &self,
        store: &Store,
        marked: &[SymbolInfo],
        beans: &HashMap<i64, SymbolInfo>,
    ) -> Result<HashMap<i64, String>, ToolError> {
        let mut roots: Vec<String> = Vec::new();
        let mut every = false;
        // Applications under test folders scan for tests; those in main code decide.
        let main: Vec<&SymbolInfo> = marked.iter().filter(|s| !super::is_test_path(&s.path)).collect();
        let scanning = |s: &&SymbolInfo| crate::frameworks::scans().any(|a| has_marker(&s.modifiers, a));
        let apps: Vec<&SymbolInfo> = if main.iter().any(scanning) { main } else { marked.iter().collect() };
        for s in apps.into_iter().filter(scanning) {
            for a in crate::frameworks::scans().filter(|a| has_marker(&s.modifiers, a)) {
                let named: Vec<&str> = marker_values(&s.modifiers, a).into_iter().flat_map(|v| v.split(',')).map(str::trim).collect();
                every |= named.contains(&"*");
                match named.as_slice() {
                    [] => roots.extend(s.qname.rsplit_once('.').map(|(package, _)| package.to_string())),
                    list => roots.extend(list.iter().filter(|p| !p.is_empty() && **p != "*").map(|p| p.to_string())),
                }
            }
        }
        if every || roots.is_empty() {
            return Ok(HashMap::new());
        }
        roots.sort();
        roots.dedup();
        let reached = |qname: &str| roots.iter().any(|r| qname.strip_prefix(r.as_str()).is_some_and(|rest| rest.starts_with('.')));
        let outside: Vec<&SymbolInfo> = beans.values().filter(|b| !reached(&b.qname)).collect();
        if outside.is_empty() {
            return Ok(HashMap::new());
        }
        let mut imported: HashSet<&str> = HashSet::new();
        for s in marked {
            for a in crate::frameworks::imports() {
                for v in marker_values(&s.modifiers, a) {
                    imported.extend(v.split(',').map(|n| n.trim().rsplit('.').next().unwrap_or("")));
                }
            }
        }
        let auto = self.auto_configured(store)?;
        let scanned = roots.join(", ");
        Ok(outside
            .into_iter()
            .filter(|b| !imported.contains(b.name.as_str()) && !auto.contains(&b.qname))
            .map(|b| (b.id, scanned.clone()))
            .collect())
    }

    /// The rows of the service graph: beans as symbols, injections as edges.
    pub(super) fn service_rows(&self, store: &Store) -> Result<(Vec<SymbolRow>, Vec<EdgeRow>), ToolError> {
        let Beans { beans, edges, .. } = self.beans(store)?;
        let mut symbols: Vec<SymbolRow> =
            beans.values().map(|s| SymbolRow { id: s.id, file: s.file_id, parent: None, kind: s.kind }).collect();
        symbols.sort_by_key(|s| s.id);
        Ok((symbols, edges))
    }

    /// The bean node a symbol belongs to: itself or the nearest enclosing bean.
    pub(super) fn bean_of(&self, store: &Store, graph: &crate::graph::Graph, s: &SymbolInfo) -> Result<Option<Node>, ToolError> {
        let mut cur = Some(s.clone());
        while let Some(c) = cur {
            if graph.contains(&Node::Symbol(c.id)) {
                return Ok(Some(Node::Symbol(c.id)));
            }
            cur = match c.parent {
                Some(p) => store.symbol(p)?,
                None => None,
            };
        }
        Ok(None)
    }

    /// `  @Primary`, `  @Qualifier(legacy) @Profile(legacy)`: a bean's markers other than its
    /// stereotype, for the rows of the service graph.
    pub(super) fn bean_markers(&self, store: &Store, node: &Node) -> Result<String, ToolError> {
        let Node::Symbol(id) = node else { return Ok(String::new()) };
        let Some(s) = store.symbol(*id)? else { return Ok(String::new()) };
        let stereotypes = crate::frameworks::stereotypes();
        let shown: Vec<&str> = s
            .modifiers
            .split(' ')
            .filter(|w| {
                w.starts_with('@')
                    && !stereotypes.iter().any(|st| has_marker(w, st))
                    && !crate::frameworks::bean_methods().iter().any(|b| has_marker(w, b))
                    && !crate::frameworks::is_construction_marker(&w[1..])
            })
            .collect();
        let mut shown: Vec<String> = shown.into_iter().map(str::to_string).collect();
        // A project's own condition its modifiers already show (by the `Conditional` prefix)
        // is not repeated with what it is built on: rows stay short.
        let named = |c: &String| c.split('(').next().is_some_and(|n| shown.iter().any(|w| has_marker(w, &n[1..])));
        let composed: Vec<String> = self.composed_conditions(store, *id)?.into_iter().filter(|c| !named(c)).collect();
        shown.extend(composed);
        if let Some(class) = self.class_conditions(store, &s)? {
            shown.push(format!("[{class}]"));
        }
        Ok(if shown.is_empty() { String::new() } else { format!("  {}", shown.join(" ")) })
    }

    /// A `@Bean` method's class's conditions, which hold for the method's bean too:
    /// `class AuditConfig: @ConditionalOnClass(com.rabbitmq.client.Channel)`. None for other
    /// declarations, or a class without any.
    pub(super) fn class_conditions(&self, store: &Store, s: &crate::store::SymbolInfo) -> Result<Option<String>, ToolError> {
        if !crate::frameworks::bean_methods().iter().any(|b| has_marker(&s.modifiers, b)) {
            return Ok(None);
        }
        let Some(class) = s.parent.map(|p| store.symbol(p)).transpose()?.flatten() else { return Ok(None) };
        let mut all: Vec<String> = crate::frameworks::condition_markers(&class.modifiers).into_iter().map(str::to_string).collect();
        all.extend(self.composed_conditions(store, class.id)?);
        Ok((!all.is_empty()).then(|| format!("class {}: {}", class.name, all.join(" "))))
    }

    /// The conditions a declaration has through the repository's own annotation types:
    /// `@OnlyInProduction(@Profile(prod))` where `@interface OnlyInProduction` is itself
    /// `@Profile("prod")`, through annotation types of annotation types too (three deep).
    pub(super) fn composed_conditions(&self, store: &Store, id: i64) -> Result<Vec<String>, ToolError> {
        fn walk(store: &Store, id: i64, depth: usize, seen: &mut Vec<i64>) -> Result<Vec<String>, ToolError> {
            let mut out = Vec::new();
            if depth == 3 {
                return Ok(out);
            }
            for (t, name, modifiers) in store.annotation_types_on(id)? {
                if seen.contains(&t) {
                    continue;
                }
                seen.push(t);
                let mut how: Vec<String> = crate::frameworks::condition_markers(&modifiers).into_iter().map(str::to_string).collect();
                how.extend(walk(store, t, depth + 1, seen)?);
                if !how.is_empty() {
                    out.push(format!("@{name}({})", how.join(" ")));
                }
            }
            Ok(out)
        }
        walk(store, id, 0, &mut vec![id])
    }

    /// A bean named by a handle: the bean itself, the bean a member belongs to, or the one
    /// bean implementing an interface (several are listed).
    pub(super) fn service_node(&self, store: &Store, graph: &crate::graph::Graph, target: &str) -> Result<Node, ToolError> {
        let s = match self.resolve_as(store, target, super::handles::Want::GraphNode)? {
            super::handles::Handle::Symbol(s) => s,
            super::handles::Handle::Overloads(all) => all.into_iter().next().expect("overloads are not empty"),
            super::handles::Handle::External(_, name) => return Err(ToolError(format!("{name} is outside the repository, not a bean"))),
        };
        if let Some(node) = self.bean_of(store, graph, &s)? {
            return Ok(node);
        }
        // An interface or superclass: the beans that implement it; a type a `@Bean` method
        // returns: that method.
        let mut impls: Vec<i64> = store.subtypes_of(s.id)?.into_iter().filter(|t| graph.contains(&Node::Symbol(*t))).collect();
        for m in store.symbols_with_markers(crate::frameworks::bean_methods().iter().map(String::as_str))? {
            let returns = store.returns_of(m.id)?.unwrap_or_default();
            if graph.contains(&Node::Symbol(m.id)) && returns.rsplit(['.', ':']).next() == Some(s.name.as_str()) {
                impls.push(m.id);
            }
        }
        match impls.as_slice() {
            [one] => Ok(Node::Symbol(*one)),
            [] => match self.beans(store)?.outside_scan.get(&s.id) {
                Some(scanned) => Err(ToolError(format!(
                    "{} {} is not a bean: it carries a stereotype, but no component scan reaches its package (the application scans {scanned}); @Import or a scan of its package would make it one",
                    s.kind, s.qname
                ))),
                None => Err(ToolError(format!(
                "{} {} is not a bean, nor implemented by one: no stereotype (@Service, @Component, @Repository, @Controller, @Configuration), no @Bean method returns it, no Spring Data repository interface",
                s.kind, s.qname
            ))),
            },
            many => {
                let mut msg = format!("{} is implemented by {} beans; pass one:", s.qname, many.len());
                for b in store.symbols_by_ids(many)? {
                    msg.push_str(&format!("\n  {} {}  {}", b.kind, b.qname, b.modifiers));
                }
                Err(ToolError(msg))
            }
        }
    }
}
