//! Diagnostic texts: `hclsyntax`'s summaries and details, one constant each.

// Lexical diagnostics (`checkInvalidTokens`), reported before any syntax
// error.
pub(super) const UNSUPPORTED_OPERATOR: &str = "Unsupported operator";
pub(super) const BITWISE_AND_DETAIL: &str =
    "Bitwise operators are not supported. Did you mean boolean AND (\"&&\")?";
pub(super) const BITWISE_OR_DETAIL: &str =
    "Bitwise operators are not supported. Did you mean boolean OR (\"||\")?";
pub(super) const BITWISE_NOT_DETAIL: &str =
    "Bitwise operators are not supported. Did you mean boolean NOT (\"!\")?";
pub(super) const BITWISE_XOR_DETAIL: &str = "Bitwise operators are not supported.";
pub(super) const INVALID_CHARACTER: &str = "Invalid character";
pub(super) const BACKTICK_DETAIL: &str = "The \"`\" character is not valid. To create a multi-line string, use the \"heredoc\" syntax, like \"<<EOT\".";
pub(super) const APOSTROPHE_DETAIL: &str =
    "Single quotes are not valid. Use double quotes (\") to enclose strings.";
pub(super) const SEMICOLON_DETAIL: &str = "The \";\" character is not valid. Use newlines to separate arguments and blocks, and commas to separate items in collection values.";
pub(super) const CURLY_QUOTES_DETAIL: &str = "\"Curly quotes\" are not valid here. These can sometimes be inadvertently introduced when sharing code via documents or discussion forums. It might help to replace the character with a \"straight quote\".";
pub(super) const UNUSED_CHARACTER_DETAIL: &str = "This character is not used within the language.";
pub(super) const INVALID_MULTILINE_STRING: &str = "Invalid multi-line string";
pub(super) const INVALID_MULTILINE_STRING_DETAIL: &str = "Quoted strings may not be split over multiple lines. To produce a multi-line string, either use the \\n escape to represent a newline character or use the \"heredoc\" multi-line template syntax.";

// Expressions.
pub(super) const EXTRA_CHARACTERS_AFTER_EXPRESSION: &str = "Extra characters after expression";
pub(super) const EXTRA_CHARACTERS_AFTER_EXPRESSION_DETAIL: &str =
    "An expression was successfully parsed, but extra characters were found after it.";
pub(super) const MISSING_FALSE_EXPRESSION: &str = "Missing false expression in conditional";
pub(super) const MISSING_FALSE_EXPRESSION_DETAIL: &str =
    "The conditional operator (...?...:...) requires a false expression, delimited by a colon.";
pub(super) const MISSING_EXPRESSION: &str = "Missing expression";
pub(super) const MISSING_EXPRESSION_DETAIL: &str =
    "Expected the start of an expression, but found the end of the file.";
pub(super) const INVALID_EXPRESSION: &str = "Invalid expression";
pub(super) const INVALID_EXPRESSION_DETAIL: &str =
    "Expected the start of an expression, but found an invalid expression token.";
pub(super) const UNBALANCED_PARENTHESES: &str = "Unbalanced parentheses";
pub(super) const UNBALANCED_PARENTHESES_DETAIL: &str =
    "Expected a closing parenthesis to terminate the expression.";
pub(super) const INVALID_NUMBER_LITERAL: &str = "Invalid number literal";
pub(super) const INVALID_NUMBER_LITERAL_DETAIL: &str =
    "Failed to recognize the value of this number literal.";

// Traversals and splats.
pub(super) const INVALID_LEGACY_INDEX: &str = "Invalid legacy index syntax";
pub(super) const NESTED_SPLAT: &str = "Nested splat expression not allowed";
pub(super) const NESTED_SPLAT_DETAIL: &str =
    "A splat expression (*) cannot be used inside another attribute-only splat expression.";
pub(super) const INVALID_ATTRIBUTE_NAME: &str = "Invalid attribute name";
pub(super) const INVALID_ATTRIBUTE_NAME_DETAIL: &str = "An attribute name is required after a dot.";
pub(super) const MISSING_SPLAT_CLOSE_BRACKET: &str = "Missing close bracket on splat index";
pub(super) const MISSING_SPLAT_CLOSE_BRACKET_DETAIL: &str =
    "The star for a full splat operator must be immediately followed by a closing bracket (\"]\").";
pub(super) const MISSING_INDEX_CLOSE_BRACKET: &str = "Missing close bracket on index";
pub(super) const MISSING_INDEX_CLOSE_BRACKET_DETAIL: &str =
    "The index operator must end with a closing bracket (\"]\").";

// Function calls.
pub(super) const MISSING_CLOSING_PARENTHESIS: &str = "Missing closing parenthesis";
pub(super) const MISSING_CLOSING_PARENTHESIS_DETAIL: &str =
    "An expanded function argument (with ...) must be immediately followed by closing parentheses.";
pub(super) const UNTERMINATED_FUNCTION_CALL: &str = "Unterminated function call";
pub(super) const UNTERMINATED_FUNCTION_CALL_DETAIL: &str = "There is no closing parenthesis for this function call before the end of the file. This may be caused by incorrect parethesis nesting elsewhere in this file.";
pub(super) const MISSING_ARGUMENT_SEPARATOR: &str = "Missing argument separator";
pub(super) const MISSING_ARGUMENT_SEPARATOR_DETAIL: &str =
    "A comma is required to separate each function argument from the next.";
pub(super) const MISSING_FUNCTION_NAME: &str = "Missing function name";
pub(super) const MISSING_FUNCTION_NAME_DETAIL: &str =
    "Function scope resolution symbol :: must be followed by a function name in this scope.";
pub(super) const MISSING_OPEN_PARENTHESIS: &str = "Missing open parenthesis";
pub(super) const MISSING_OPEN_PARENTHESIS_DETAIL: &str =
    "Function selector must be followed by an open parenthesis to begin the function call.";

// Collections.
pub(super) const UNTERMINATED_TUPLE: &str = "Unterminated tuple constructor expression";
pub(super) const UNTERMINATED_TUPLE_DETAIL: &str = "There is no corresponding closing bracket before the end of the file. This may be caused by incorrect bracket nesting elsewhere in this file.";
pub(super) const MISSING_ITEM_SEPARATOR: &str = "Missing item separator";
pub(super) const MISSING_ITEM_SEPARATOR_DETAIL: &str =
    "Expected a comma to mark the beginning of the next item.";
pub(super) const MISSING_ATTRIBUTE_VALUE: &str = "Missing attribute value";
pub(super) const MISSING_ATTRIBUTE_VALUE_DETAIL: &str =
    "Expected an attribute value, introduced by an equals sign (\"=\").";
pub(super) const MISSING_KEY_VALUE_SEPARATOR: &str = "Missing key/value separator";
pub(super) const MISSING_KEY_VALUE_SEPARATOR_DETAIL: &str =
    "Expected an equals sign (\"=\") to mark the beginning of the attribute value.";
pub(super) const MISSING_KEY_VALUE_SEPARATOR_IDENT_DETAIL: &str = "Expected an equals sign (\"=\") to mark the beginning of the attribute value. If you intended to given an attribute name containing periods or spaces, write the name in quotes to create a string literal.";
pub(super) const UNTERMINATED_OBJECT: &str = "Unterminated object constructor expression";
pub(super) const UNTERMINATED_OBJECT_DETAIL: &str = "There is no corresponding closing brace before the end of the file. This may be caused by incorrect brace nesting elsewhere in this file.";
pub(super) const MISSING_ATTRIBUTE_SEPARATOR: &str = "Missing attribute separator";
pub(super) const MISSING_ATTRIBUTE_SEPARATOR_DETAIL: &str =
    "Expected a newline or comma to mark the beginning of the next attribute.";

// For expressions.
pub(super) const INVALID_FOR_EXPRESSION: &str = "Invalid 'for' expression";
pub(super) const FOR_MISSING_NAME_DETAIL: &str =
    "For expression requires variable name after 'for'.";
pub(super) const FOR_MISSING_VALUE_NAME_DETAIL: &str =
    "For expression requires value variable name after comma.";
pub(super) const FOR_MISSING_IN_DETAIL: &str =
    "For expression requires the 'in' keyword after its name declarations.";
pub(super) const FOR_MISSING_COLON_DETAIL: &str =
    "For expression requires a colon after the collection expression.";
pub(super) const FOR_EXTRA_CHARACTERS_DETAIL: &str =
    "Extra characters after the end of the 'for' expression.";
pub(super) const FOR_TUPLE_KEY_DETAIL: &str = "Key expression is not valid when building a tuple.";
pub(super) const FOR_TUPLE_GROUP_DETAIL: &str =
    "Grouping ellipsis (...) cannot be used when building a tuple.";
pub(super) const FOR_OBJECT_KEY_DETAIL: &str =
    "Key expression is required when building an object.";

// Templates.
pub(super) const INVALID_ESCAPE_SEQUENCE: &str = "Invalid escape sequence";
pub(super) const SHORT_UNICODE_ESCAPE_DETAIL: &str =
    "The \\u escape sequence must be followed by four hexadecimal digits.";
pub(super) const LONG_UNICODE_ESCAPE_DETAIL: &str =
    "The \\U escape sequence must be followed by eight hexadecimal digits.";
pub(super) const UNCLOSED_INTERPOLATION: &str = "Unclosed template interpolation sequence";
pub(super) const UNCLOSED_INTERPOLATION_EOF_DETAIL: &str = "There is no closing brace for this interpolation sequence before the end of the file. This might be caused by incorrect nesting inside the given expression.";
pub(super) const UNCLOSED_INTERPOLATION_QUOTE_DETAIL: &str = "There is no closing brace for this interpolation sequence before the end of the quoted template. This might be caused by incorrect nesting inside the given expression.";
pub(super) const EXTRA_AFTER_INTERPOLATION: &str =
    "Extra characters after interpolation expression";
pub(super) const EXTRA_AFTER_INTERPOLATION_COLON_DETAIL: &str = "Template interpolation doesn't expect a colon at this location. Did you intend this to be a literal sequence to be processed as part of another language? If so, you can escape it by starting with \"$${\" instead of just \"${\".";
pub(super) const EXTRA_AFTER_INTERPOLATION_DETAIL: &str = "Expected a closing brace to end the interpolation expression, but found extra characters.\n\nThis can happen when you include interpolation syntax for another language, such as shell scripting, but forget to escape the interpolation start token. If this is an embedded sequence for another language, escape it by starting with \"$${\" instead of just \"${\".";
pub(super) const INVALID_TEMPLATE_DIRECTIVE: &str = "Invalid template directive";
pub(super) const INVALID_TEMPLATE_DIRECTIVE_DETAIL: &str = "A template directive keyword (\"if\", \"for\", etc) is expected at the beginning of a %{ sequence.";
pub(super) const INVALID_FOR_DIRECTIVE: &str = "Invalid 'for' directive";
pub(super) const FOR_DIRECTIVE_MISSING_NAME_DETAIL: &str =
    "For directive requires variable name after 'for'.";
pub(super) const FOR_DIRECTIVE_MISSING_VALUE_NAME_DETAIL: &str =
    "For directive requires value variable name after comma.";
pub(super) const FOR_DIRECTIVE_MISSING_IN_DETAIL: &str =
    "For directive requires 'in' keyword after names.";
pub(super) const INVALID_TEMPLATE_CONTROL_KEYWORD: &str = "Invalid template control keyword";
pub(super) const EXTRA_IN_IF_MARKER: &str = "Extra characters in if marker";
pub(super) const EXTRA_IN_ELSE_MARKER: &str = "Extra characters in else marker";
pub(super) const EXTRA_IN_ENDIF_MARKER: &str = "Extra characters in endif marker";
pub(super) const EXTRA_IN_FOR_MARKER: &str = "Extra characters in for marker";
pub(super) const EXTRA_IN_ENDFOR_MARKER: &str = "Extra characters in endfor marker";
pub(super) const EXTRA_IN_MARKER_DETAIL: &str =
    "Expected a closing brace to end the sequence, but found extra characters.";
pub(super) const UNTERMINATED_TEMPLATE_STRING: &str = "Unterminated template string";
pub(super) const UNTERMINATED_TEMPLATE_STRING_DETAIL: &str =
    "No closing marker was found for the string.";
pub(super) const UNEXPECTED_END_OF_TEMPLATE: &str = "Unexpected end of template";
pub(super) const UNEXPECTED_ELSE: &str = "Unexpected else directive";
pub(super) const UNEXPECTED_ENDIF: &str = "Unexpected endif directive";
pub(super) const UNEXPECTED_ENDFOR: &str = "Unexpected endfor directive";
pub(super) const UNBALANCED_DIRECTIVES_DETAIL: &str =
    "The control directives within this template are unbalanced.";
pub(super) const ELSE_IN_FOR_DETAIL: &str = "An else clause is not expected for a for directive.";

// Our own limit; `hclsyntax` has none.
pub(super) const NESTING_TOO_DEEP: &str = "Expression nested too deeply";
