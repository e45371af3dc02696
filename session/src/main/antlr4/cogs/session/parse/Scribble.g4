/*
 * The subset of Scribble global protocols that cogs-session reads (see session/README.md).
 * Written for Cogs from the language as its users write it; the parse tree is turned into
 * cogs.session.ast by cogs.session.parse.AstBuilder, which reports nothing itself: every
 * syntax error comes from here, through cogs.session.parse.Parser's error strategy.
 */
grammar Scribble;

@parser::header {
// cogs.session.parse.Parser, the front end, lives in this package; without this single-type
// import it would shadow ANTLR's Parser in the generated code.
import org.antlr.v4.runtime.Parser;
}

module_      : MODULE qname SEMI typeDecl* protocolDecl* EOF ;
qname        : ID (DOT ID)* ;

// type <java> "java.lang.String" from "rt.jar" as String;
typeDecl     : TYPE LT schema=ID GT target=STRING FROM source=STRING AS alias=ID SEMI ;

protocolDecl : GLOBAL PROTOCOL name=ID LPAREN roleDecl (COMMA roleDecl)* RPAREN block ;
roleDecl     : ROLE ID ;

block        : LBRACE interaction* RBRACE ;

interaction
  : label=ID LPAREN (payload (COMMA payload)*)? RPAREN FROM from=ID TO ID (COMMA ID)* SEMI   # Message
  | CHOICE AT at=ID block (OR block)*                                                      # Choice
  | REC label=ID block                                                                     # Rec
  | CONTINUE label=ID SEMI                                                                 # Continue
  | DO proto=ID LPAREN (ID (COMMA ID)*)? RPAREN SEMI                                       # Do
  | PAR block (AND block)+                                                                 # Par
  ;

// A payload element: a declared type, optionally named (`x: Int`).
payload      : (name=ID COLON)? type=ID ;

MODULE   : 'module' ;
TYPE     : 'type' ;
FROM     : 'from' ;
AS       : 'as' ;
GLOBAL   : 'global' ;
PROTOCOL : 'protocol' ;
ROLE     : 'role' ;
TO       : 'to' ;
CHOICE   : 'choice' ;
AT       : 'at' ;
OR       : 'or' ;
REC      : 'rec' ;
CONTINUE : 'continue' ;
DO       : 'do' ;
PAR      : 'par' ;
AND      : 'and' ;

LPAREN : '(' ;
RPAREN : ')' ;
LBRACE : '{' ;
RBRACE : '}' ;
LT     : '<' ;
GT     : '>' ;
COMMA  : ',' ;
SEMI   : ';' ;
COLON  : ':' ;
DOT    : '.' ;

ID     : [a-zA-Z_] [a-zA-Z0-9_]* ;
STRING : '"' (~["\\\r\n] | '\\' .)* '"' ;

LINE_COMMENT  : '//' ~[\r\n]* -> skip ;
BLOCK_COMMENT : '/*' .*? '*/' -> skip ;
WS            : [ \t\r\n\f]+ -> skip ;
// Anything else is one bad character; the parser reports it where it stands.
BAD    : . ;
