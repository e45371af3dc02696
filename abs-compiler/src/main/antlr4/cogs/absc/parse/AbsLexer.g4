/*
 * Lexer for ABS (the Abstract Behavioral Specification language), written for Cogs' absc.
 *
 * It is a separate lexer grammar (not a combined grammar) because template strings
 * (`...$e$...`) need lexer modes: inside a template we lex raw text, inside a `$...$`
 * hole we lex ordinary tokens again, and holes may themselves contain templates.
 *
 * The lexer never fails: characters it cannot use become ERROR_CHAR tokens, and an
 * unterminated block comment becomes an UNTERMINATED_COMMENT token, both on the ERRORS
 * channel. The parser never sees that channel; cogs.absc.parse.Parser reports those
 * tokens as lexical errors with a message a modeller can read, and parsing goes on as if
 * the bad characters were not there.
 */
lexer grammar AbsLexer;

channels { ERRORS }

@members {
    /**
     * A '$' outside any template string has no hole to close: stay in the default mode
     * (the parser then reports the stray '$') instead of failing on an empty mode stack.
     */
    @Override
    public int popMode() {
        return _modeStack.isEmpty() ? DEFAULT_MODE : super.popMode();
    }
}

// ---------------------------------------------------------------------------------
// Layout and comments

WS              : [ \t\r\n\f]+ -> skip ;
LINE_COMMENT    : '//' ~[\r\n]* -> skip ;
BLOCK_COMMENT   : '/*' .*? '*/' -> skip ;
// A '/*' that is never closed. The body cannot contain '*/', so this rule only wins
// when the comment really runs to the end of the file.
UNTERMINATED_COMMENT : '/*' ( ~'*' | '*'+ ~[*/] )* '*'* EOF -> channel(ERRORS) ;

// ---------------------------------------------------------------------------------
// Keywords. They are listed before the identifier rules so that, for equally long
// matches, the keyword wins; they are therefore not usable as identifiers.

ADDS        : 'adds' ;
AS          : 'as' ;
ASSERT      : 'assert' ;
AWAIT       : 'await' ;
BUILTIN     : 'builtin' ;
CASE        : 'case' ;
CATCH       : 'catch' ;
CLASS       : 'class' ;
DATA        : 'data' ;
DEF         : 'def' ;
DESTINY     : 'destiny' ;
DIE         : 'die' ;
DURATION    : 'duration' ;
ELSE        : 'else' ;
EXCEPTION   : 'exception' ;
EXPORT      : 'export' ;
EXTENDS     : 'extends' ;
FINALLY     : 'finally' ;
FOREACH     : 'foreach' ;
FROM        : 'from' ;
GET         : 'get' ;
IF          : 'if' ;
IMPLEMENTS  : 'implements' ;
IMPORT      : 'import' ;
IN          : 'in' ;
INTERFACE   : 'interface' ;
LET         : 'let' ;
LOCAL       : 'local' ;
MODIFIES    : 'modifies' ;
MODULE      : 'module' ;
MOVECOGTO   : 'movecogto' ;
NEW         : 'new' ;
NULL        : 'null' ;
RECOVER     : 'recover' ;
REMOVES     : 'removes' ;
RETURN      : 'return' ;
SKIP_       : 'skip' ;
SUSPEND     : 'suspend' ;
SWITCH      : 'switch' ;
THEN        : 'then' ;
THIS        : 'this' ;
THROW       : 'throw' ;
TRAIT       : 'trait' ;
TRY         : 'try' ;
TYPE        : 'type' ;
USES        : 'uses' ;
WHEN        : 'when' ;
WHILE       : 'while' ;

// ---------------------------------------------------------------------------------
// Names. ABS tells names apart by their first letter: lower case for variables,
// fields, methods and functions; upper case for types, classes, interfaces,
// constructors and modules. A qualified name (`ABS.StdLib.List`, `M.f`) is one token,
// so that no whitespace can sneak into it and so that `o.m()` (a call on a variable)
// and `M.f()` (a qualified function) are told apart by the lexer alone.

QUALIFIED_TYPE_ID : UPPER_NAME ( '.' UPPER_NAME )+ ;
QUALIFIED_ID      : ( UPPER_NAME '.' )+ LOWER_NAME ;
TYPE_ID           : UPPER_NAME ;
LOWER_ID          : LOWER_NAME ;

fragment UPPER_NAME : [A-Z] NAME_CHAR* ;
fragment LOWER_NAME : [a-z] NAME_CHAR* ;
fragment NAME_CHAR  : [a-zA-Z0-9_] ;

// ---------------------------------------------------------------------------------
// Literals. Leading zeros are lexed here and rejected by the AST builder, which can
// say why; negative numbers are the unary minus applied to a literal.

FLOAT   : [0-9]* '.' [0-9]+ ( [eE] [+-]? [0-9]+ )? ;
INT     : [0-9]+ ;

// Escapes are checked by the AST builder (so a bad one gets a precise message);
// here any backslash pair is accepted. Strings cannot span lines.
STRING  : '"' ( '\\' ~[\r\n] | ~["\\\r\n] )* '"' ;
// A string that reaches the end of its line unclosed is still a STRING token, so the
// parser sees a complete expression; Parser recognises it by its missing closing quote
// and reports it.
UNTERMINATED_STRING : '"' ( '\\' ~[\r\n] | ~["\\\r\n] )* '\\'? -> type(STRING) ;

TEMPLATE_START : '`' -> pushMode(TEMPLATE) ;
// Closes a `$...$` hole of a template string (see the popMode override above).
TEMPLATE_HOLE_END : '$' -> popMode ;

// ---------------------------------------------------------------------------------
// Operators and punctuation

ANDAND    : '&&' ;
OROR      : '||' ;
EQ        : '==' ;
NE        : '!=' ;
LE        : '<=' ;
GE        : '>=' ;
ARROW     : '=>' ;
LT        : '<' ;
GT        : '>' ;
ASSIGN    : '=' ;
BANG      : '!' ;
AMP       : '&' ;
BAR       : '|' ;
PLUS      : '+' ;
MINUS     : '-' ;
STAR      : '*' ;
SLASH     : '/' ;
PERCENT   : '%' ;
QUESTION  : '?' ;
DOT       : '.' ;
COMMA     : ',' ;
SEMI      : ';' ;
COLON     : ':' ;
LPAREN    : '(' ;
RPAREN    : ')' ;
LBRACE    : '{' ;
RBRACE    : '}' ;
LBRACK    : '[' ;
RBRACK    : ']' ;
UNDERSCORE: '_' ;

// Anything else: reported by Parser as "unexpected character".
ERROR_CHAR : . -> channel(ERRORS) ;

// ---------------------------------------------------------------------------------
// Inside a template string: raw text up to the next unescaped '$' or '`'. Only \` and
// \$ are escapes (the AST builder removes their backslash); every other character,
// including a line break or a lone backslash, stands for itself.

mode TEMPLATE;

TEMPLATE_TEXT       : ( '\\' [`$] | '\\' | ~[`$\\] )+ ;
TEMPLATE_HOLE_START : '$' -> pushMode(DEFAULT_MODE) ;
TEMPLATE_END        : '`' -> popMode ;
