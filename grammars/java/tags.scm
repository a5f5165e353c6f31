; codeatlas query for Java. Capture vocabulary (see src/lang.rs):
;   @definition.<kind> + @name      a symbol; <kind> is a SymbolKind name
;   @reference.<kind> [+ @name]     a reference; <kind> is a RefKind name; without @name the
;                                   captured node's text is the referenced path
;   @receiver                       the object a call is made on
;   @local.name + @local.type       a typed variable, for receiver types of calls
;   @import                         an import declaration (parsed by the language hook)
;   @package                        the file's package name
;   @typeparams                     a type parameter list: its names are not dependencies
;   @anonymous                      a scope whose members are not symbols (anonymous classes)

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
(type_parameters) @typeparams

; ---- references
(superclass [(type_identifier) (scoped_type_identifier)] @reference.extends)
(superclass (generic_type [(type_identifier) (scoped_type_identifier)] @reference.extends))
(super_interfaces (type_list [(type_identifier) (scoped_type_identifier)] @reference.implements))
(super_interfaces (type_list (generic_type [(type_identifier) (scoped_type_identifier)] @reference.implements)))
(extends_interfaces (type_list [(type_identifier) (scoped_type_identifier)] @reference.extends))
(extends_interfaces (type_list (generic_type [(type_identifier) (scoped_type_identifier)] @reference.extends)))

(object_creation_expression type: [(type_identifier) (scoped_type_identifier)] @reference.instantiates)
(object_creation_expression type: (generic_type [(type_identifier) (scoped_type_identifier)] @reference.instantiates))

(method_invocation !object name: (identifier) @name) @reference.calls
(method_invocation object: (_) @receiver name: (identifier) @name) @reference.calls

(marker_annotation name: (_) @reference.annotates)
(annotation name: (_) @reference.annotates)

(field_access object: (identifier) @reference.accesses)
(method_reference . [(identifier) (type_identifier) (scoped_type_identifier)] @reference.accesses)

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
