/*
 * Parser for ABS (the Abstract Behavioral Specification language), written for Cogs'
 * absc from the ABS reference manual's description of the language.
 *
 * The parse tree is turned into the immutable AST of cogs.absc.ast by
 * cogs.absc.parse.AstBuilder; labelled alternatives (`# Label`) give each construct its
 * own context class, which the builder matches on. Syntax the grammar accepts but the
 * language forbids in a way worth explaining (an impure field initialiser, `import *`
 * without `from`, ...) is reported by the builder, with a better message than a
 * grammar-level error could give.
 *
 * Operator precedence, from loosest to tightest binding (all binary operators are left
 * associative):
 *     ||    &&    == !=    < <= > >=    implements as    + -    * / %    unary ! -
 * `let`, `if`/`when ... then ... else` and `case` are atoms whose trailing expression
 * extends as far to the right as possible.
 */
parser grammar AbsParser;

options { tokenVocab = AbsLexer; }

@header {
// The front end's entry point, cogs.absc.parse.Parser, lives in this package; without
// this single-type import it would shadow ANTLR's Parser in the generated code.
import org.antlr.v4.runtime.Parser;
}

// ---------------------------------------------------------------------------------
// Entry points

/**
 * Modules first, then the product line's parts in the reference toolchain's order: deltas, the
 * product line, products, the feature model (see "Product lines" below).
 */
compilationUnit : moduleDecl* deltaDecl* productLineDecl? productDecl* featureModelDecl* EOF ;

/** For tests and tools: exactly one expression (pure or with effects). */
expEof  : exp EOF ;
/** For tests and tools: exactly one statement. */
stmtEof : stmt EOF ;

// ---------------------------------------------------------------------------------
// Names

typeName : TYPE_ID | QUALIFIED_TYPE_ID ;
varName  : LOWER_ID | QUALIFIED_ID ;
anyName  : typeName | varName ;

// ---------------------------------------------------------------------------------
// Modules

moduleDecl
    : MODULE typeName SEMI
      ( exportDecl | importDecl )*
      decl*
      mainBlock?
    ;

exportDecl : EXPORT nameSelection ( FROM typeName )? SEMI ;
importDecl : IMPORT nameSelection ( FROM typeName )? SEMI ;

nameSelection
    : STAR                              # AllNamesSel
    | anyName ( COMMA anyName )*        # SomeNamesSel
    ;

mainBlock : annotation* block ;

// ---------------------------------------------------------------------------------
// Declarations

decl
    : annotation*
      ( dataDecl
      | typeSynDecl
      | exceptionDecl
      | functionDecl
      | interfaceDecl
      | classDecl
      | traitDecl
      )
    ;

typeParams : LT TYPE_ID ( COMMA TYPE_ID )* GT ;

dataDecl : DATA TYPE_ID typeParams? ( ASSIGN constructorDecl ( BAR constructorDecl )* )? SEMI ;

constructorDecl : TYPE_ID constructorArgs? ;

constructorArgs : LPAREN ( constructorArg ( COMMA constructorArg )* )? RPAREN ;

/** A constructor argument type, optionally naming a selector (accessor) function. */
constructorArg : annotation* type LOWER_ID? ;

typeSynDecl : TYPE TYPE_ID typeParams? ASSIGN type SEMI ;

exceptionDecl : EXCEPTION TYPE_ID constructorArgs? SEMI ;

/**
 * `def T f<A>(A x) = e;`, `def T f(A x) = builtin;`, and the partial (second-order)
 * form `def T f<A>(g, h)(A x) = e;` whose first list names function parameters.
 * Annotations after `def` belong to the result type (`def [Nullable] T f() = ...`).
 */
functionDecl
    : DEF annotation* type LOWER_ID typeParams?
      ( LPAREN LOWER_ID ( COMMA LOWER_ID )* RPAREN )?
      paramList
      ASSIGN functionBody SEMI
    ;

functionBody
    : BUILTIN ( LPAREN ( pureExp ( COMMA pureExp )* )? RPAREN )?   # BuiltinBody
    | pureExp                                                       # ExpBody
    ;

interfaceDecl
    : INTERFACE TYPE_ID ( EXTENDS typeName ( COMMA typeName )* )?
      LBRACE methodSig* RBRACE
    ;

methodSig : annotation* type LOWER_ID paramList SEMI ;

paramList : LPAREN ( param ( COMMA param )* )? RPAREN ;

param : annotation* type LOWER_ID ;

/**
 * The manual orders a class body as fields, init block, recovery block, trait uses,
 * methods. We accept the members in any order (AstBuilder keeps each kind in source
 * order and rejects a second init or recovery block), because an order error would
 * only make a modeller move code around.
 */
classDecl
    : CLASS TYPE_ID paramList? ( IMPLEMENTS typeName ( COMMA typeName )* )?
      LBRACE classMember* RBRACE
    ;

classMember
    : annotation* type LOWER_ID ( ASSIGN exp )? SEMI          # FieldMember
    | methodDecl                                              # MethodMember
    | block                                                   # InitMember
    | RECOVER LBRACE switchBranch* RBRACE                     # RecoverMember
    // `uses T removes Unit m();;` (a signature's own `;`, then the clause's) is accepted too.
    | USES traitExpr SEMI SEMI?                               # UsesMember
    ;

methodDecl : annotation* type LOWER_ID paramList block ;

traitDecl : TRAIT traitName ASSIGN traitExpr ( SEMI SEMI? )? ;

traitName : TYPE_ID | LOWER_ID ;

traitExpr : methodSet traitOp* ;

methodSet
    : traitName                          # TraitRefSet
    | methodDecl                         # SingleMethodSet
    | LBRACE methodDecl* RBRACE          # MethodListSet
    ;

/**
 * A single removed signature has no `;` of its own: the one that ends the `uses` clause
 * or trait declaration ends it (`uses T removes Unit m();`).
 */
traitOp
    : ADDS methodSet                                          # AddsOp
    | MODIFIES methodSet                                      # ModifiesOp
    | REMOVES ( methodHead | LBRACE methodSig* RBRACE )       # RemovesOp
    ;

methodHead : annotation* type LOWER_ID paramList ;

// ---------------------------------------------------------------------------------
// Types and annotations

type : typeName ( LT typeArg ( COMMA typeArg )* GT )? ;

/** A type argument may carry annotations, e.g. `Fut<[Far] Worker>`. */
typeArg : annotation* type ;

/** `[Atomic]`, `[Cost: 10]`, `[DC: dc, Deadline: Duration(5)]`. */
annotation : LBRACK annotationFragment ( COMMA annotationFragment )* RBRACK ;

annotationFragment : ( typeName COLON )? pureExp ;

// ---------------------------------------------------------------------------------
// Statements

block : LBRACE stmt* RBRACE ;

stmt : annotation* stmtBody ;

stmtBody
    : block                                                             # BlockStmt
    | SKIP_ SEMI                                                        # SkipStmt
    | SUSPEND SEMI                                                      # SuspendStmt
    | RETURN exp SEMI                                                   # ReturnStmt
    | ASSERT pureExp SEMI                                               # AssertStmt
    | THROW pureExp SEMI                                                # ThrowStmt
    | DIE pureExp SEMI                                                  # DieStmt
    | MOVECOGTO pureExp SEMI                                            # MoveCogToStmt
    | DURATION LPAREN pureExp ( COMMA pureExp )? RPAREN SEMI            # DurationStmt
    | AWAIT guard SEMI                                                  # AwaitStmt
    | IF LPAREN pureExp RPAREN stmt ( ELSE stmt )?                      # IfStmt
    | WHILE LPAREN pureExp RPAREN stmt                                  # WhileStmt
    | FOREACH LPAREN LOWER_ID ( COMMA LOWER_ID )? IN pureExp RPAREN stmt  # ForeachStmt
    // A `;` after the closing brace is tolerated: older models write a case
    // expression with `;`-terminated branches as a statement, `case e { p => 1; };`,
    // which reads (with the same meaning) as a case statement with expression
    // statements as branches.
    | SWITCH LPAREN pureExp RPAREN LBRACE switchBranch* RBRACE SEMI?    # SwitchStmt
    // The older statement form of pattern matching: `case e { p => s ... }`.
    | CASE pureExp LBRACE switchBranch* RBRACE SEMI?                    # CaseStmt
    | TRY stmt CATCH ( LBRACE switchBranch* RBRACE | switchBranch )
      ( FINALLY stmt )?                                                 # TryStmt
    // Must come before ExpStmt: `List<Int> x;` also reads as the expression
    // `(List < Int) > x`, and ANTLR resolves such ambiguities by the first alternative.
    | type LOWER_ID ( ASSIGN exp )? SEMI                                # VarDeclStmt
    | ( THIS DOT )? LOWER_ID ASSIGN exp SEMI                            # AssignStmt
    // Statements starting with `if`, `case` or `await` are the alternatives above; the
    // predicate tells ANTLR so at the first token, instead of letting it look through a
    // whole condition, case body or guard to rule out an expression statement (which
    // would also turn errors in there into vague "unexpected ..." messages).
    | { _input.LA(1) != IF && _input.LA(1) != CASE && _input.LA(1) != AWAIT }?
      exp SEMI                                                          # ExpStmt
    ;

switchBranch : pattern ARROW stmt ;

/**
 * `&` binds looser than every operator of a pure expression. The statement
 * `await o!m(args);` also arrives here, as a guard with a call suffix; AstBuilder turns
 * it into an expression statement (and rejects a call inside a conjunction).
 */
guard
    : guard AMP guard                                                   # AndGuard
    | ( THIS DOT )? LOWER_ID QUESTION                                   # ClaimGuard
    | DURATION LPAREN pureExp ( COMMA pureExp )? RPAREN                 # DurationGuard
    | pureExp ( BANG LOWER_ID LPAREN args? RPAREN )?                    # ExpGuard
    ;

// ---------------------------------------------------------------------------------
// Expressions

/**
 * Expressions with side effects may only appear whole: as a statement, the right-hand
 * side of a declaration or assignment, or a returned value. A call or `.get` is written
 * as a suffix after a pure expression (left-factored, so ANTLR decides with one token of
 * lookahead); AstBuilder accepts only an atom as the receiver, so `1 + f.get` is an
 * error rather than `(1 + f).get`.
 */
exp
    : NEW LOCAL? typeName LPAREN args? RPAREN                   # NewExp
    | AWAIT pureExp BANG LOWER_ID LPAREN args? RPAREN           # AwaitCallExp
    | pureExp effSuffix?                                        # PureOrCallExp
    ;

effSuffix
    : BANG LOWER_ID LPAREN args? RPAREN                         # AsyncSuffix
    | DOT LOWER_ID LPAREN args? RPAREN                          # SyncSuffix
    | DOT GET                                                   # GetSuffix
    ;

args : pureExp ( COMMA pureExp )* ;

pureExp
    : primary                                                   # PrimaryExp
    | op=( BANG | MINUS ) pureExp                               # UnaryExp
    | pureExp op=( STAR | SLASH | PERCENT ) pureExp             # MulExp
    | pureExp op=( PLUS | MINUS ) pureExp                       # AddExp
    | pureExp op=( IMPLEMENTS | AS ) typeName                   # TypeTestExp
    | pureExp op=( LT | LE | GT | GE ) pureExp                  # CompareExp
    | pureExp op=( EQ | NE ) pureExp                            # EqualityExp
    | pureExp op=ANDAND pureExp                                 # AndExp
    | pureExp op=OROR pureExp                                   # OrExp
    ;

primary
    : INT                                                       # IntLit
    | FLOAT                                                     # FloatLit
    | STRING                                                    # StringLit
    | templateString                                            # TemplateLit
    | NULL                                                      # NullLit
    | THIS DOT LOWER_ID                                         # FieldExp
    | THIS                                                      # ThisExp
    | DESTINY                                                   # DestinyExp
    | varName LPAREN funArg ( COMMA funArg )* RPAREN
              LPAREN args? RPAREN                               # PartialFnAppExp
    | varName LPAREN args? RPAREN                               # FnAppExp
    | varName LBRACK args? RBRACK                               # NAryFnAppExp
    | LOWER_ID                                                  # VarExp
    | typeName ( LPAREN args? RPAREN )?                         # ConstructorExp
    | LPAREN pureExp RPAREN                                     # ParenExp
    | LET letBinding ( COMMA letBinding )* IN pureExp           # LetExp
    | ( IF | WHEN ) pureExp THEN pureExp ELSE pureExp           # IfExp
    | CASE pureExp LBRACE BAR? caseBranch ( ( SEMI | BAR ) caseBranch )* SEMI? RBRACE  # CaseExp
    ;

/** `let T x = e` and the older parenthesised `let (T x) = e`. */
letBinding
    : type LOWER_ID ASSIGN pureExp
    | LPAREN type LOWER_ID RPAREN ASSIGN pureExp
    ;

/**
 * Branches are separated by `|` (current syntax; a `|` may also precede the first
 * branch) or terminated by `;` (older syntax).
 */
caseBranch : pattern ARROW pureExp ;

/** A function argument of a partial function application. */
funArg
    : varName                                                   # FunNameArg
    | LPAREN ( param ( COMMA param )* )? RPAREN ARROW pureExp   # AnonFunArg
    ;

templateString
    : TEMPLATE_START ( TEMPLATE_TEXT | TEMPLATE_HOLE_START pureExp TEMPLATE_HOLE_END )* TEMPLATE_END
    ;

// ---------------------------------------------------------------------------------
// Patterns

pattern
    : UNDERSCORE                                                # WildcardPattern
    | LOWER_ID                                                  # VarPattern
    | MINUS? ( INT | FLOAT )                                    # NumberPattern
    | STRING                                                    # StringPattern
    | typeName ( LPAREN ( pattern ( COMMA pattern )* )? RPAREN )?  # ConstructorPattern
    ;

// ---------------------------------------------------------------------------------
// Product lines: deltas, the product line, products, the feature model
//
// Their words (`delta`, `productline`, `product`, `features`, `after`, `root`, `group`, ...)
// are not keywords: they are lower-case names recognised where they open a declaration (a
// predicate on the token's text), so models that use them as names still parse, as with the
// reference toolchain, which reserves them only in these declarations.

kwDelta       : { _input.LT(1).getText().equals("delta") }? LOWER_ID ;
kwProductline : { _input.LT(1).getText().equals("productline") }? LOWER_ID ;
kwFeatures    : { _input.LT(1).getText().equals("features") }? LOWER_ID ;
kwProduct     : { _input.LT(1).getText().equals("product") }? LOWER_ID ;
kwAfter       : { _input.LT(1).getText().equals("after") }? LOWER_ID ;
kwRoot        : { _input.LT(1).getText().equals("root") }? LOWER_ID ;
kwExtension   : { _input.LT(1).getText().equals("extension") }? LOWER_ID ;
kwGroup       : { _input.LT(1).getText().equals("group") }? LOWER_ID ;
kwOneof       : { _input.LT(1).getText().equals("oneof") }? LOWER_ID ;
kwAllof       : { _input.LT(1).getText().equals("allof") }? LOWER_ID ;
kwOpt         : { _input.LT(1).getText().equals("opt") }? LOWER_ID ;
kwIfin        : { _input.LT(1).getText().equals("ifin") }? LOWER_ID ;
kwIfout       : { _input.LT(1).getText().equals("ifout") }? LOWER_ID ;
kwRequire     : { _input.LT(1).getText().equals("require") }? LOWER_ID ;
kwExclude     : { _input.LT(1).getText().equals("exclude") }? LOWER_ID ;

/** `delta D(T p, ..); uses M; modifiers..` */
deltaDecl : kwDelta TYPE_ID ( LPAREN param ( COMMA param )* RPAREN )? SEMI ( USES typeName SEMI )? moduleModifier* ;

moduleModifier
    : ADDS decl                                                         # AddsDeclMod
    | MODIFIES annotation* dataDecl                                     # ModifiesDataMod
    | MODIFIES annotation* typeSynDecl                                  # ModifiesTypeSynMod
    | REMOVES CLASS typeName SEMI                                       # RemovesClassMod
    | REMOVES INTERFACE typeName SEMI                                   # RemovesInterfaceMod
    | MODIFIES CLASS typeName ( ADDS typeName ( COMMA typeName )* )?
      ( REMOVES typeName ( COMMA typeName )* )?
      LBRACE classModifier* RBRACE                                      # ModifiesClassMod
    | MODIFIES INTERFACE typeName LBRACE interfaceModifier* RBRACE      # ModifiesInterfaceMod
    | ADDS importDecl                                                   # AddsImportMod
    | ADDS exportDecl                                                   # AddsExportMod
    ;

classModifier
    : ADDS fieldDecl                                                    # AddsFieldMod
    | REMOVES fieldDecl                                                 # RemovesFieldMod
    | ADDS methodSet                                                    # AddsMethodsMod
    | MODIFIES methodSet                                                # ModifiesMethodsMod
    | REMOVES ( methodSig | LBRACE methodSig* RBRACE )                  # RemovesMethodsMod
    ;

fieldDecl : annotation* type LOWER_ID ( ASSIGN exp )? SEMI ;

interfaceModifier
    : ADDS methodSig                                                    # AddsSigMod
    | REMOVES methodSig                                                 # RemovesSigMod
    ;

/** `productline PL; features F, G; delta D(F.a) after E when F && !G; ..` */
productLineDecl : kwProductline TYPE_ID SEMI kwFeatures TYPE_ID ( COMMA TYPE_ID )* SEMI deltaClause* ;

deltaClause
    : kwDelta TYPE_ID ( LPAREN deltaArg ( COMMA deltaArg )* RPAREN )?
      ( kwAfter TYPE_ID ( COMMA TYPE_ID )* )? ( WHEN appCond )? SEMI
    ;

deltaArg
    : QUALIFIED_ID                                                      # AttrDeltaArg
    | MINUS? INT                                                        # IntDeltaArg
    | STRING                                                            # StringDeltaArg
    | TYPE_ID                                                           # NameDeltaArg
    ;

appCond
    : BANG appCond                                                      # NotCond
    | appCond ANDAND appCond                                            # AndCond
    | appCond OROR appCond                                              # OrCond
    | LPAREN appCond RPAREN                                             # ParenCond
    | TYPE_ID                                                           # FeatureCond
    ;

/** `product P(F, G{a = 1});` or `product P = Q && {F} || R - {G};` */
productDecl
    : kwProduct TYPE_ID ( LPAREN ( featureSpec ( COMMA featureSpec )* )? RPAREN SEMI | ASSIGN productExpr SEMI )
    ;

featureSpec : TYPE_ID ( LBRACE attrAssign ( COMMA attrAssign )* RBRACE )? ;

attrAssign : LOWER_ID ASSIGN ( MINUS? INT | TYPE_ID | STRING ) ;

productExpr
    : LBRACE featureSpec ( COMMA featureSpec )* RBRACE                  # ProductSetExpr
    | productExpr ANDAND productExpr                                    # ProductAndExpr
    | productExpr OROR productExpr                                      # ProductOrExpr
    | productExpr MINUS productExpr                                     # ProductMinusExpr
    | TYPE_ID                                                           # ProductNameExpr
    | LPAREN productExpr RPAREN                                         # ProductParenExpr
    ;

/** `root F { group oneof { G, opt H {..} } Int a in [0 .. 10]; require: K; }`, `extension F { .. }` */
featureModelDecl
    : kwRoot featureDecl                                                # RootFeature
    | kwExtension TYPE_ID LBRACE featureBody RBRACE                     # ExtensionFeature
    ;

featureDecl : TYPE_ID ( LBRACE featureBody RBRACE )? ;

featureBody : featureGroup? ( featureAttr | featureConstraint )* ;

featureGroup : kwGroup cardinality LBRACE featureNode ( COMMA featureNode )* RBRACE ;

/** `[1 .. *]`; `[1..3]` lexes as `1`, `.`, `.3` (a float), which `range` accepts too. */
cardinality
    : kwAllof                                                           # AllofCard
    | kwOneof                                                           # OneofCard
    | LBRACK range RBRACK                                               # RangeCard
    ;

range : lo=bound DOT ( DOT hi=bound | FLOAT ) ;

bound : STAR | MINUS? INT ;

featureNode : kwOpt? featureDecl ;

featureAttr
    : TYPE_ID LOWER_ID IN LBRACK range RBRACK SEMI                      # RangeAttr
    | TYPE_ID LBRACK range RBRACK LOWER_ID SEMI                         # RangeAttr2
    | TYPE_ID LOWER_ID IN LBRACE MINUS? INT ( COMMA MINUS? INT )* RBRACE SEMI  # SetAttr
    | TYPE_ID LOWER_ID SEMI                                             # PlainAttr
    ;

featureConstraint
    : kwIfout COLON mexp SEMI                                           # IfoutConstraint
    | kwRequire COLON TYPE_ID SEMI                                      # RequireConstraint
    | kwExclude COLON TYPE_ID SEMI                                      # ExcludeConstraint
    | ( kwIfin COLON )? mexp SEMI                                       # IfinConstraint
    ;

/** Constraints of the feature model, with the reference's precedence (`->`, `<->` bind tighter than `&&`). */
mexp
    : op=( BANG | MINUS ) mexp                                          # MUnary
    | mexp op=( STAR | SLASH | PERCENT ) mexp                           # MBinary
    | mexp op=( PLUS | MINUS ) mexp                                     # MBinary
    | mexp op=( LT | LE | GT | GE ) mexp                                # MBinary
    | mexp op=( EQ | NE ) mexp                                          # MBinary
    | mexp ( MINUS GT | LT MINUS GT ) mexp                              # MImplies
    | mexp op=ANDAND mexp                                               # MBinary
    | mexp op=OROR mexp                                                 # MBinary
    | LPAREN mexp RPAREN                                                # MParen
    | QUALIFIED_ID                                                      # MAttr
    | TYPE_ID                                                           # MName
    | LOWER_ID                                                          # MName
    | INT                                                               # MInt
    ;
