package cogs.absc.parse

import org.junit.jupiter.api.Assertions._
import org.junit.jupiter.api.Test

import cogs.absc.parse.TestSupport._

/**
 * Syntax errors: exact messages and positions. Each message should tell a modeller what
 * to write, at the place where it is missing or wrong.
 */
class SyntaxErrorTest {

  private def err(line: Int, col: Int, message: String) = s"$File:$line:$col: error: $message"

  @Test def missingSemicolonIsReportedAtTheEndOfTheUnfinishedLine(): Unit =
    assertEquals(List(err(3, 12, "expected ';'")),
      errors("module M;\n{\n  Int x = 5\n  x = 6;\n}"))

  @Test def missingSemicolonAfterASignature(): Unit =
    assertEquals(List(err(2, 27, "expected ';'")),
      errors("module M;\ninterface I { Int m(Int x) }"))

  @Test def missingSemicolonAfterADataTypeBeforeTheNextDeclaration(): Unit =
    assertEquals(List(err(2, 15, "expected '|' or ';', found keyword 'def'")),
      errors("module M;\ndata D = A | B\ndef Int f() = 1;"))

  @Test def missingExpression(): Unit = {
    assertEquals(List(err(2, 19, "expected an expression, found ';'")), errors("module M;\nclass C { Int x = ; }"))
    assertEquals(List(err(2, 23, "expected an expression, found ';'")), errors("module M;\ndef Int f(Int x) = x +;"))
    assertEquals(List(err(1, 11, "expected an expression, found ']'")), expErrors("list[1, 2,]"))
  }

  @Test def missingClosingParenthesis(): Unit =
    assertEquals(List(err(1, 8, "expected ')', found '2'")), expErrors("f(1, 1 2)"))

  @Test def lowerCaseTypeName(): Unit =
    assertEquals(
      List(err(2, 7, "unexpected 'x'; if 'int' is meant as a type, write 'Int' (type names start with an upper-case letter)")),
      errors("module M;\n{ int x = 5; }"))

  @Test def upperCaseVariableName(): Unit =
    assertEquals(
      List(err(2, 7, "unexpected 'X' (names of variables, fields, methods and functions start with a lower-case letter)")),
      errors("module M;\n{ Int X = 5; }"))

  @Test def lowerCaseModuleName(): Unit =
    assertEquals(
      List(err(1, 8, "expected a type name, found 'm' " +
        "(names of types, classes, interfaces, constructors and modules start with an upper-case letter)")),
      errors("module m;"))

  @Test def keywordAsName(): Unit =
    assertEquals(List(err(2, 7, "unexpected keyword 'get' ('get' is a keyword and cannot be used as a name)")),
      errors("module M;\n{ Int get = 5; }"))

  @Test def conditionWithoutParentheses(): Unit = {
    assertEquals(List(err(2, 6, "expected '(' after 'if', found 'x'")), errors("module M;\n{ if x > 1 { skip; } }"))
    assertEquals(List(err(2, 8, "expected '('")), errors("module M;\n{ while x < 5 { skip; } }").take(1))
  }

  @Test def expressionsThatCannotStandAloneAsStatements(): Unit =
    // Each bad statement is skipped whole, so every one is reported, and nothing else.
    assertEquals(List(
      err(3, 6, "expected '(' after 'if', found 'x'"),
      err(4, 3, "a case expression cannot be used as a statement; in a case statement each branch is 'pattern => statement'"),
      err(5, 3, "an if-expression ('if c then a else b') cannot be used as a statement; write 'if (c) statement else statement'"),
      err(6, 11, "expected an expression, found ';'")),
      errors(
        """module M;
          |{
          |  if x > 1 { skip; } else { skip; }
          |  case x { A => 1 | B => 2 };
          |  if (x) then 1 else 2;
          |  Int y = ;
          |}""".stripMargin))

  @Test def unclosedBraceAtEndOfFile(): Unit =
    assertEquals(List(err(4, 1, "unexpected end of file; the '{' on line 2, column 9 is never closed")),
      errors("module M;\nclass C {\n  Unit m() { skip; }\n"))

  @Test def statementOutsideTheMainBlock(): Unit =
    assertEquals(List(err(2, 1, "expected 'module' or end of file, found 'Int'")), errors("module M;\nInt x = 5;"))

  @Test def strayCharacters(): Unit = {
    assertEquals(List(err(2, 13, "unexpected character '#'")), errors("module M;\n{ Int x = 1 # 2; }"))
    assertEquals(List(err(2, 14, "unexpected character \"'\" (string literals are written in double quotes)")),
      errors("module M;\n{ String s = 'abc'; }"))
    assertEquals(List(err(2, 6, "unexpected character '\u00e9' (names may only use the letters a-z and A-Z, digits and '_')")),
      errors("module M;\n{ caf\u00e9(); }"))
  }

  @Test def unterminatedStringCommentAndTemplate(): Unit = {
    assertEquals(List(err(2, 14, "unterminated string literal: missing closing '\"' on this line")),
      errors("module M;\n{ String s = \"abc; }"))
    assertEquals(List(err(2, 1, "unterminated comment: this '/*' is never closed by '*/'")),
      errors("module M;\n/* never closed\n{ }"))
    assertEquals(List(err(3, 1, "unterminated template string: missing closing '`'")),
      errors("module M;\n{ String s = `abc $x$ \n"))
  }

  @Test def invalidLiterals(): Unit =
    assertEquals(List(
      err(2, 11, "integer literal '007' must not start with 0 (write '7')"),
      err(2, 29, "invalid escape sequence '\\q' in string literal (valid: \\n \\t \\r \\b \\f \\\" \\' \\\\ \\uXXXX)")),
      errors("module M;\n{ Int x = 007; String s = \"a\\qb\"; }"))

  @Test def effectsWhereOnlyPureExpressionsAreAllowed(): Unit = {
    assertEquals(List(err(2, 19,
      "a field initialiser must be a pure expression, not an object creation ('new'); do this in the init block")),
      errors("module M;\nclass C { Int f = new D(); }"))
    assertEquals(List(
      err(2, 17, "a '.get' cannot be part of a larger expression (here it would apply to '1 + f'); " +
        "assign its result to a variable first, or put the receiver in parentheses")),
      errors("module M;\n{ Int r = 1 + f.get; }"))
    assertEquals(List(err(2, 16, "a method call cannot be awaited together with other guards; " +
      "call it first and await its future: 'Fut<T> f = o!m(); await f? & ...;'")),
      errors("module M;\n{ await f? & o!m(); }"))
  }

  @Test def importsNeedAModule(): Unit =
    assertEquals(List(
      err(2, 8, "import of 'x' needs a module: write 'import x from M;' or 'import M.x;'"),
      err(3, 1, "'import *' needs a module to import from: write 'import * from M;'")),
      errors("module M;\nimport x;\nimport *;"))

  @Test def atMostOneInitBlock(): Unit =
    assertEquals(List(err(2, 21, "class C already has an init block")),
      errors("module M;\nclass C { { skip; } { skip; } }"))

  @Test def twoErrorsInOneFileAreBothReported(): Unit =
    assertEquals(List(
      err(4, 23, "expected ';'"),
      err(5, 18, "expected an expression, found ';'")),
      errors(
        """module M;
          |class C implements I {
          |  Unit m() { skip; }
          |  Unit n() { Int x = 1 }
          |  Unit k() { x = ; }
          |}""".stripMargin))

  @Test def errorsOnSeveralLinesComeInSourceOrder(): Unit = {
    val es = errors("module M;\n{\n  Int a = 1 # 2;\n  Int b = ;\n  String c = \"x\\y\";\n}")
    assertEquals(List(
      err(3, 13, "unexpected character '#'"),
      err(4, 11, "expected an expression, found ';'"),
      err(5, 16, "invalid escape sequence '\\y' in string literal (valid: \\n \\t \\r \\b \\f \\\" \\' \\\\ \\uXXXX)")),
      es)
  }

  @Test def windowsLineEndings(): Unit =
    assertEquals(List(err(3, 12, "expected ';'")), errors("module M;\r\n{\r\n  Int x = 5\r\n  x = 6;\r\n}\r\n"))

  @Test def inputNestedBeyondAnyReasonIsAnErrorNotACrash(): Unit = {
    // With the real stack (256 MB) the limit is beyond half a million levels; a small
    // stack shows what happens past it without a huge input.
    val n = 50000
    val text = "module M; { Int x = " + "(" * n + "1" + ")" * n + "; }"
    assertEquals(List(err(1, 1, "the program is nested too deeply to be parsed")),
      Parser.parseWithStack(File, text, 1L << 20).swap.toOption.get.map(_.header))
    assertTrue(Parser.parse(File, text).isRight)
  }

  @Test def renderedDiagnosticShowsTheLineAndACaret(): Unit = {
    val text = "module M;\n{\n\tInt x = 5\n\tx = 6;\n}"
    val d = Parser.parse("bank.abs", text).swap.toOption.get.head
    assertEquals("bank.abs:3:11: error: expected ';'\n\tInt x = 5\n\t         ^", d.render(text))
  }

  @Test def misspelledKeywordsAtTheTopLevelGetASuggestion(): Unit = {
    assertEquals(List(err(2, 1, "unexpected 'interfac'; did you mean 'interface'?")), errors("module M;\ninterfac I {}"))
    assertEquals(List(err(1, 1, "unexpected 'modul'; did you mean 'module'?")), errors("modul M;\nclass C {}"))
    assertEquals(List(err(2, 1, "unexpected 'clas'; did you mean 'class'?")), errors("module M;\nclas C {}"))
    assertEquals(List(err(3, 1, "unexpected 'exeption'; did you mean 'exception'?")), errors("module M;\ndata D = A;\nexeption E;"))
    assertEquals(List(err(2, 1, "unexpected 'calss'; did you mean 'class'?")), errors("module M;\ncalss C {}"))
    assertEquals(List(err(2, 1, "unexpected 'Interface'; did you mean 'interface'?")), errors("module M;\nInterface I {}"))
    assertEquals(List(err(2, 1, "unexpected 'improt'; did you mean 'import'?")), errors("module M;\nimprot * from N;"))
  }

  @Test def misspelledStatementKeywordsGetASuggestion(): Unit = {
    // The error is found after the misspelt word: `whle (x < 3)` is a call, the `{` is not.
    assertEquals(List(err(2, 15, "expected ';'; did you mean 'while'?")), errors("module M;\n{ whle (x < 3) { skip; } }"))
    assertEquals(List(err(2, 10, "unexpected 'x'; did you mean 'return'?")), errors("module M;\n{ retrun x; }"))
    assertEquals(List(err(2, 9, "unexpected 'o'; did you mean 'await'?")), errors("module M;\n{ awiat o!m(); }"))
    assertEquals(List(err(2, 10, "expected ';'; did you mean 'if'?")), errors("module M;\n{ iff (b) { skip; } }"))
    assertEquals(List(err(2, 13, "unexpected keyword 'in'; did you mean 'foreach'?")), errors("module M;\n{ forach (x in l) { skip; } }"))
  }

  @Test def aStatementThatStartsWithAnOrdinaryNameGetsNoKeywordSuggestion(): Unit = {
    // 'of' is one edit from 'if', but too short to be a guess; 'count' is far from every keyword.
    assertEquals(List(err(2, 9, "expected ';'")), errors("module M;\n{ of (b) { skip; } }"))
    assertFalse(errors("module M;\n{ count (b) { skip; } }").exists(_.contains("did you mean")))
  }

  @Test def aNameFarFromEveryKeywordGetsNoSuggestion(): Unit = {
    assertEquals(List(err(2, 1, "expected 'module' or end of file, found 'foo'")), errors("module M;\nfoo bar;"))
    // 'dat' is one edit from 'data', but 'at' is too short to be a guess at anything.
    assertEquals(List(err(2, 1, "expected 'module' or end of file, found 'at'")), errors("module M;\nat x;"))
  }

  @Test def editDistanceCountsATranspositionAsOneEdit(): Unit = {
    assertEquals(1, SyntaxMessages.editDistance("calss", "class"))
    assertEquals(1, SyntaxMessages.editDistance("interfac", "interface"))
    assertEquals(2, SyntaxMessages.editDistance("exeptin", "exception"))
    assertEquals(0, SyntaxMessages.editDistance("", ""))
    assertEquals(3, SyntaxMessages.editDistance("abc", ""))
  }
}
