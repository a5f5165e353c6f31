; repochart query for Java. Capture vocabulary (see src/lang.rs):
;   @definition.<kind> + @name      a symbol; <kind> is a SymbolKind name
;   @reference.<kind> [+ @name]     a reference; <kind> is a RefKind name; without @name the
;                                   captured node's text is the referenced path
;   @receiver                       the object a call is made on
;   @arguments                      a call's argument list (argument types pick the overload)
;   @local.name [+ @local.type]     a variable (typed: for receiver types of calls); locals hide
;                                   fields of the same name
;   @import                         an import declaration (parsed by the language hook)
;   @package                        the file's package name
;   @typeparams                     a type parameter list: its names are not dependencies
;   @anonymous                      an anonymous class's body: its members are symbols of a
;                                   nameless class (`$1`), its code is what encloses it
;   @resource                       a try-with-resources resource's type (its `close` is called)
;   @lambda                         a lambda or method reference: where the type it implements is
;                                   declared or it is an argument (the callee's parameter type),
;                                   a nameless symbol `$2` under what encloses it

(package_declaration [(identifier) (scoped_identifier)] @package)
(import_declaration) @import

; ---- definitions
(class_declaration name: (identifier) @name) @definition.class
(interface_declaration name: (identifier) @name) @definition.interface
(enum_declaration name: (identifier) @name) @definition.enum
(record_declaration name: (identifier) @name) @definition.record
(annotation_type_declaration name: (identifier) @name) @definition.annotation
(method_declaration name: (identifier) @name) @definition.method
(annotation_type_element_declaration name: (identifier) @name) @definition.method
(constructor_declaration name: (identifier) @name) @definition.constructor
(compact_constructor_declaration name: (identifier) @name) @definition.constructor
(field_declaration declarator: (variable_declarator name: (identifier) @name)) @definition.field
(constant_declaration declarator: (variable_declarator name: (identifier) @name)) @definition.field
(enum_constant name: (identifier) @name) @definition.enum_constant
(record_declaration parameters: (formal_parameters (formal_parameter name: (identifier) @name) @definition.field))

(object_creation_expression (class_body) @anonymous)
[(lambda_expression) (method_reference)] @lambda
(resource type: (_) @resource)
(type_parameters) @typeparams

; ---- references
(superclass [(type_identifier) (scoped_type_identifier)] @reference.extends)
(superclass (generic_type [(type_identifier) (scoped_type_identifier)] @reference.extends))
(super_interfaces (type_list [(type_identifier) (scoped_type_identifier)] @reference.implements))
(super_interfaces (type_list (generic_type [(type_identifier) (scoped_type_identifier)] @reference.implements)))
(extends_interfaces (type_list [(type_identifier) (scoped_type_identifier)] @reference.extends))
(extends_interfaces (type_list (generic_type [(type_identifier) (scoped_type_identifier)] @reference.extends)))

(object_creation_expression type: [(type_identifier) (scoped_type_identifier)] @reference.instantiates arguments: (argument_list) @arguments)
(object_creation_expression type: (generic_type [(type_identifier) (scoped_type_identifier)] @reference.instantiates) arguments: (argument_list) @arguments)
; `SUCCESS(200, "ok")`, `CUSTOMER`: an enum constant creates its enum's instance, calling
; its constructor with the constant's arguments, none when it has none (the extractor names
; the enum)
(enum_constant arguments: (argument_list) @reference.instantiates @arguments)
(enum_constant !arguments) @reference.instantiates

(method_invocation !object name: (identifier) @name arguments: (argument_list) @arguments) @reference.calls
(method_invocation object: (_) @receiver name: (identifier) @name arguments: (argument_list) @arguments) @reference.calls
; `this(...)`, `super(...)`: a constructor of the class or of its superclass
(explicit_constructor_invocation !object constructor: [(this) (super)] @reference.calls arguments: (argument_list) @arguments)

; Method references: `Customer::getName`, `this::handle`, `super::m`, `Order::new`
(method_reference . (_) @receiver (identifier) @name .) @reference.method_ref
(method_reference . (_) @receiver "new" @name .) @reference.method_ref

(marker_annotation name: (_) @reference.annotates)
(annotation name: (_) @reference.annotates)

; A name before a dot is a variable if one is in scope, else a type (JLS 6.5.2): both are
; captured and the resolver keeps the one that exists.
(field_access object: (identifier) @reference.accesses)
(method_invocation object: (identifier) @reference.accesses)
(method_reference . [(identifier) (type_identifier) (scoped_type_identifier)] @reference.accesses)

; ---- fields and constants: `x.f`, and a bare name where an expression goes (the
; extractor drops names of locals and parameters; the resolver keeps fields only)
(field_access object: (_) @receiver field: (identifier) @name) @reference.uses_field
(field_access object: (identifier) @reference.uses_field)
(method_invocation object: (identifier) @reference.uses_field)
(method_reference . (identifier) @reference.uses_field)
(assignment_expression left: (identifier) @reference.uses_field)
(assignment_expression right: (identifier) @reference.uses_field)
(binary_expression left: (identifier) @reference.uses_field)
(binary_expression right: (identifier) @reference.uses_field)
(unary_expression operand: (identifier) @reference.uses_field)
(update_expression (identifier) @reference.uses_field)
(ternary_expression condition: (identifier) @reference.uses_field)
(ternary_expression consequence: (identifier) @reference.uses_field)
(ternary_expression alternative: (identifier) @reference.uses_field)
(cast_expression value: (identifier) @reference.uses_field)
(instanceof_expression left: (identifier) @reference.uses_field)
(array_access array: (identifier) @reference.uses_field)
(array_access index: (identifier) @reference.uses_field)
(variable_declarator value: (identifier) @reference.uses_field)
(lambda_expression body: (identifier) @reference.uses_field)
(enhanced_for_statement value: (identifier) @reference.uses_field)
(for_statement condition: (identifier) @reference.uses_field)
(element_value_pair value: (identifier) @reference.uses_field)
(argument_list (identifier) @reference.uses_field)
(parenthesized_expression (identifier) @reference.uses_field)
(return_statement (identifier) @reference.uses_field)
(array_initializer (identifier) @reference.uses_field)
(throw_statement (identifier) @reference.uses_field)
(yield_statement (identifier) @reference.uses_field)
(assert_statement (identifier) @reference.uses_field)
(dimensions_expr (identifier) @reference.uses_field)
(switch_label (identifier) @reference.uses_field)
(guard (identifier) @reference.uses_field)
(resource (identifier) @reference.uses_field)
(element_value_array_initializer (identifier) @reference.uses_field)
(annotation_argument_list (identifier) @reference.uses_field)

(type_identifier) @reference.uses_type
(scoped_type_identifier) @reference.uses_type

; ---- typed variables (receivers of calls)
(local_variable_declaration type: (_) @local.type declarator: (variable_declarator name: (identifier) @local.name))
(local_variable_declaration declarator: (variable_declarator name: (identifier) @local.name value: (object_creation_expression type: (_) @local.type)))
(formal_parameter type: (_) @local.type name: (identifier) @local.name)
(spread_parameter (_) @local.type (variable_declarator name: (identifier) @local.name))
(field_declaration type: (_) @local.type declarator: (variable_declarator name: (identifier) @local.name))
(constant_declaration type: (_) @local.type declarator: (variable_declarator name: (identifier) @local.name))
(enhanced_for_statement type: (_) @local.type name: (identifier) @local.name)
(catch_formal_parameter (catch_type (_) @local.type) name: (identifier) @local.name)
(record_declaration parameters: (formal_parameters (formal_parameter type: (_) @local.type name: (identifier) @local.name)))
(resource type: (_) @local.type name: (identifier) @local.name)
(instanceof_expression right: (_) @local.type name: (identifier) @local.name)
(type_pattern (_) @local.type (identifier) @local.name)
(record_pattern_component (_) @local.type (identifier) @local.name)
; `var x = value` (`var` is no type: the extractor reads the value instead)
(local_variable_declaration declarator: (variable_declarator name: (identifier) @local.name value: (_) @local.value))
; untyped: lambda parameters (they hide fields of the same name)
(lambda_expression parameters: (identifier) @local.name)
(inferred_parameters (identifier) @local.name)
; a container's elements (`grammars/java/elements.toml`): the variable of `for (var p : pets)`,
; and the parameters of a lambda passed to a call that hands it elements
; (`pets.stream().filter(p -> p.isNew())`; the extractor checks the call's name)
(enhanced_for_statement name: (identifier) @local.name value: (_) @local.each)
(method_invocation object: (_) @local.each name: (identifier) @local.call
  arguments: (argument_list (lambda_expression parameters: (identifier) @local.name)))
(method_invocation object: (_) @local.each name: (identifier) @local.call
  arguments: (argument_list (lambda_expression parameters: (inferred_parameters (identifier) @local.name))))
