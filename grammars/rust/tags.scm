; repochart query for Rust. Same capture vocabulary as grammars/java/tags.scm, plus:
;   @scope.impl + @impl.type [+ @impl.trait]   an impl block: its items belong to the type

(use_declaration) @import
; `pub extern crate member as alias;`: a facade's re-export of a crate, read as `pub use member as alias;`.
(extern_crate_declaration) @import

; ---- definitions
(mod_item name: (identifier) @name) @definition.module
(struct_item name: (type_identifier) @name) @definition.struct
(union_item name: (type_identifier) @name) @definition.union
(enum_item name: (type_identifier) @name) @definition.enum
(enum_variant name: (identifier) @name) @definition.variant
(trait_item name: (type_identifier) @name) @definition.trait
(type_item name: (type_identifier) @name) @definition.type_alias
(associated_type name: (type_identifier) @name) @definition.type_alias
(function_item name: (identifier) @name) @definition.function
(function_signature_item name: (identifier) @name) @definition.function
(const_item name: (identifier) @name) @definition.const
(static_item name: (identifier) @name) @definition.static
(macro_definition name: (identifier) @name) @definition.macro
(field_declaration_list (field_declaration name: (field_identifier) @name) @definition.field)

(impl_item trait: (_)? @impl.trait type: (_) @impl.type) @scope.impl

; supertraits (`trait SubscriberExt: Subscriber + Sealed`): the trait extends them, so a
; value of it has their methods
(trait_item bounds: (trait_bounds [(type_identifier) (scoped_type_identifier)] @reference.extends))
(trait_item bounds: (trait_bounds (generic_type type: [(type_identifier) (scoped_type_identifier)] @reference.extends)))

(type_parameters) @typeparams
; `where S: Sink` bounds a parameter as `<S: Sink>` does.
(where_clause) @typeparams

; ---- references
(call_expression function: [(identifier) (scoped_identifier)] @reference.calls)
(call_expression function: (generic_function function: [(identifier) (scoped_identifier)] @reference.calls))
(call_expression function: (field_expression value: (_) @receiver field: (field_identifier) @name)) @reference.calls
(call_expression function: (generic_function function: (field_expression value: (_) @receiver field: (field_identifier) @name))) @reference.calls

; functions and methods used as values (`route(create)`, `.map(Self::parse)`,
; `.and_then(parse_line)`, `Handler { on_exit: cleanup }`, `let f = parse;`, `[a, b]`):
; the extractor drops names bound as variables, the resolver keeps those naming a function
(arguments [(identifier) (scoped_identifier)] @reference.method_ref)
(field_initializer value: [(identifier) (scoped_identifier)] @reference.method_ref)
(let_declaration value: [(identifier) (scoped_identifier)] @reference.method_ref)
(array_expression [(identifier) (scoped_identifier)] @reference.method_ref)

; paths and names read as values elsewhere (`level == Level::TRACE`, `=> Self::INFO,`,
; `return MAX;`, `(A, B)`): the extractor keeps a constant's or static's name
; (SCREAMING_CASE, as Rust names them) as a use of it and any other path as a value
; (`x == Kind::Plain`), and drops other bare names, which are variables
(binary_expression left: [(identifier) (scoped_identifier)] @reference.uses_field)
(binary_expression right: [(identifier) (scoped_identifier)] @reference.uses_field)
(unary_expression [(identifier) (scoped_identifier)] @reference.uses_field)
(reference_expression value: [(identifier) (scoped_identifier)] @reference.uses_field)
(return_expression [(identifier) (scoped_identifier)] @reference.uses_field)
(break_expression [(identifier) (scoped_identifier)] @reference.uses_field)
(match_arm value: [(identifier) (scoped_identifier)] @reference.uses_field)
(match_expression value: [(identifier) (scoped_identifier)] @reference.uses_field)
(tuple_expression [(identifier) (scoped_identifier)] @reference.uses_field)
(parenthesized_expression [(identifier) (scoped_identifier)] @reference.uses_field)
(range_expression [(identifier) (scoped_identifier)] @reference.uses_field)
(assignment_expression right: [(identifier) (scoped_identifier)] @reference.uses_field)
(compound_assignment_expr right: [(identifier) (scoped_identifier)] @reference.uses_field)
(index_expression . (_) [(identifier) (scoped_identifier)] @reference.uses_field)
(index_expression . [(identifier) (scoped_identifier)] @reference.uses_field)
(field_expression value: (identifier) @reference.uses_field)
(array_type length: [(identifier) (scoped_identifier)] @reference.uses_field)
(type_cast_expression value: [(identifier) (scoped_identifier)] @reference.uses_field)
(const_item value: [(identifier) (scoped_identifier)] @reference.uses_field)
(static_item value: [(identifier) (scoped_identifier)] @reference.uses_field)
(if_expression condition: [(identifier) (scoped_identifier)] @reference.uses_field)
(while_expression condition: [(identifier) (scoped_identifier)] @reference.uses_field)
(closure_expression body: [(identifier) (scoped_identifier)] @reference.uses_field)
(block [(identifier) (scoped_identifier)] @reference.uses_field .)

(macro_invocation macro: [(identifier) (scoped_identifier)] @reference.expands)
; attribute macros (`#[instrument]`, `#[tokio::main]`) and, through `derive(..)`, derive
; macros: the extractor drops the attributes the compiler reads itself
; (`grammars/rust/builtin-attributes.txt`) and takes each path `derive` lists
(attribute_item (attribute . [(identifier) (scoped_identifier)] @reference.expands))
; Best effort inside a macro's tokens: `name(...)` is taken for a call. The token tree is
; its receiver, which is unknown: it resolves only by a unique name and is marked a guess.
(token_tree (identifier) @name . (token_tree . "(")) @reference.calls @receiver

(struct_expression name: [(type_identifier) (scoped_type_identifier)] @reference.instantiates)
(struct_expression name: (generic_type_with_turbofish type: [(type_identifier) (scoped_identifier)] @reference.instantiates))
(tuple_struct_pattern type: [(identifier) (scoped_identifier)] @reference.accesses)
(struct_pattern type: [(type_identifier) (scoped_type_identifier)] @reference.accesses)
(match_pattern (scoped_identifier) @reference.accesses)
; `Count | CountMatches => ..` after `use Kind::*;`: a bare name in a pattern is a variant or a
; constant when written in UpperCamel or SCREAMING case (the extractor drops the others,
; which are bindings)
(match_pattern (identifier) @reference.accesses)
(or_pattern [(identifier) (scoped_identifier)] @reference.accesses)
(field_expression value: (scoped_identifier) @reference.accesses)
; the type or module before `::` in an expression (`SearcherBuilder::new()`, `Style::Bold`);
; the extractor drops those inside `use` declarations, the resolver those naming modules
(scoped_identifier path: [(identifier) (scoped_identifier)] @reference.accesses)
; fields read or written (`self.items`, `order.total`); a method call's name is a call
(field_expression value: (_) @receiver field: (field_identifier) @name) @reference.uses_field
; Fields named by a struct literal or a struct pattern: `Match { start, end: e }`,
; `Error::WithPath { ref path, .. }`; the struct (or variant) is the receiver.
(struct_expression name: (_) @receiver body: (field_initializer_list (field_initializer field: (field_identifier) @name))) @reference.uses_field
(struct_expression name: (_) @receiver body: (field_initializer_list (shorthand_field_initializer (identifier) @name))) @reference.uses_field
(struct_pattern type: (_) @receiver (field_pattern name: (_) @name)) @reference.uses_field

(type_identifier) @reference.uses_type
(scoped_type_identifier) @reference.uses_type

; ---- typed variables (receivers of calls)
(let_declaration pattern: (identifier) @local.name type: (_) @local.type)
(let_declaration pattern: (identifier) @local.name value: (call_expression function: (scoped_identifier path: (_) @local.type)))
(let_declaration pattern: (identifier) @local.name value: (struct_expression name: (_) @local.type))
; untyped: the type of the value (`let b = Searcher::builder().build();`), when the
; extractor can follow it
(let_declaration pattern: (identifier) @local.name !type value: [(call_expression) (try_expression) (reference_expression) (field_expression) (index_expression) (macro_invocation)] @local.value)
; `let (subscriber, handle) = mock().run_with_handle();`: each name is its element of the value
(let_declaration pattern: (tuple_pattern) @local.name !type value: [(call_expression) (try_expression) (field_expression) (identifier)] @local.value)
(parameter pattern: (identifier) @local.name type: (_) @local.type)
; a container's elements (`grammars/rust/elements.toml`): the variable of `for m in &ms`,
; and the parameters of a closure passed to a call that hands it elements
; (`ms.iter().map(|m| m.end())`; the extractor checks the call's name)
(for_expression pattern: (identifier) @local.name value: (_) @local.each)
(for_expression pattern: (reference_pattern (identifier) @local.name) value: (_) @local.each)
(for_expression pattern: (mut_pattern (identifier) @local.name) value: (_) @local.each)
; `for (i, m) in ms.iter().enumerate()`: the second of two is the element
(for_expression pattern: (tuple_pattern . (_) . [(identifier) @local.name (reference_pattern (identifier) @local.name)] .) value: (_) @local.each)
(call_expression function: (field_expression value: (_) @local.each field: (field_identifier) @local.call)
  arguments: (arguments (closure_expression parameters: (closure_parameters (identifier) @local.name))))
(call_expression function: (field_expression value: (_) @local.each field: (field_identifier) @local.call)
  arguments: (arguments (closure_expression parameters: (closure_parameters (reference_pattern (identifier) @local.name)))))
(field_declaration name: (field_identifier) @local.name type: (_) @local.type)
