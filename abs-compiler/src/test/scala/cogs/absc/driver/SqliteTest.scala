package cogs.absc.driver

import java.nio.file.{Files, Path, Paths}
import java.sql.DriverManager

import scala.jdk.CollectionConverters._
import scala.util.Using

import org.junit.jupiter.api.Assertions._
import org.junit.jupiter.api.{BeforeAll, Test, TestInstance}

import DriverTestSupport._

/**
 * SQLite query functions (`builtin(sqlite3, "file", "SQL", params..)`): a database made here
 * with JDBC, queried by one ABS model compiled once (the runs after the first hit absc's cache).
 * The table `mode` of the database says which part of the main block runs, so that each failure
 * (a missing file, a bad query, a value of the wrong SQL type, a NULL, a wrong number of `?`s)
 * gets a run of its own from the same model. The database is named relative to the working
 * directory, as the reference backends resolve it.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class SqliteTest {

  private var dir: Path = _
  private var cache: Path = _
  private var db: Path = _
  private var model: String = _

  @BeforeAll def setUp(): Unit = {
    dir = tempDir("absc-sqlite")
    cache = dir.resolve("cache")
    db = dir.resolve("people.sqlite3")
    val relative = Paths.get("").toAbsolutePath.relativize(db).toString
    model = absFile(dir, "db", source(relative))
  }

  private def source(file: String): String = {
    def q(ret: String, name: String, sql: String, params: String = ""): String =
      s"""def $ret $name = builtin(sqlite3, "$file", "$sql"$params);"""
    s"""module Db;
       |data Person = Person(String name, Int age, Float height, Rat share, Bool member);
       |type Persons = List<Person>;
       |${q("List<String>", "mode()", "SELECT m FROM mode")}
       |${q("List<String>", "names()", "SELECT name FROM people ORDER BY id")}
       |${q("List<Int>", "ages()", "SELECT age FROM people ORDER BY id")}
       |${q("List<Float>", "heights()", "SELECT height FROM people ORDER BY id")}
       |${q("List<Rat>", "shares()", "SELECT share FROM people ORDER BY id")}
       |${q("List<Bool>", "members()", "SELECT member FROM people ORDER BY id")}
       |${q("Persons", "people()", "SELECT name, age, height, share, member FROM people ORDER BY id")}
       |${q("List<Person>", "older(Int min, Bool member)", "SELECT name, age, height, share, member FROM people WHERE age > ? AND member = ? ORDER BY id", ", min, member")}
       |${q("List<String>", "matching(Person p)", "SELECT name FROM people WHERE name = ? OR height = ? OR share = ? ORDER BY id", ", name(p), height(p), share(p) + 0")}
       |${q("List<Int>", "none()", "SELECT age FROM people WHERE age > 1000")}
       |${q("List<Int>", "misspelt()", "SELEKT age FROM people")}
       |${q("List<Int>", "nameAsInt()", "SELECT name FROM people ORDER BY id")}
       |${q("List<Int>", "oneParam(Int a)", "SELECT age FROM people WHERE age > ? AND age < ?", ", a")}
       |${q("List<Person>", "narrow()", "SELECT name, age FROM people")}
       |{
       |  String m = head(mode());
       |  if (m == "all") {
       |    println(`$$names()$$ $$ages()$$ $$heights()$$ $$shares()$$ $$members()$$`);
       |    foreach (p in people()) { println(toString(p)); }
       |    println(`older: $$older(20, True)$$ $$older(10, False)$$`);
       |    println(`matching: $$matching(Person("Bob", 0, 1.8, 1/4, False))$$`);
       |    println(`none: $$none()$$`);
       |  }
       |  if (m == "ages") { println(toString(ages())); }
       |  if (m == "misspelt") { println(toString(misspelt())); }
       |  if (m == "nameAsInt") { println(toString(nameAsInt())); }
       |  if (m == "oneParam") { println(toString(oneParam(3))); }
       |  if (m == "narrow") { println(toString(narrow())); }
       |}
       |""".stripMargin
  }

  /** The database afresh: three people, with `mode` saying what the model does. */
  private def database(mode: String, extra: String*): Unit = {
    Files.deleteIfExists(db)
    Using.resource(DriverManager.getConnection("jdbc:sqlite:" + db)) { c =>
      Using.resource(c.createStatement()) { s =>
        s.executeUpdate("CREATE TABLE people (id INTEGER, name TEXT, age INTEGER, height REAL, share REAL, member BOOLEAN)")
        s.executeUpdate("INSERT INTO people VALUES (1, 'Ada', 36, 1.65, 0.25, 1), (2, 'Bob', 17, 2, 1, 0), (3, 'Zoë', 52, 1.8, 0.1, 1)")
        s.executeUpdate("CREATE TABLE mode (m TEXT)")
        s.executeUpdate(s"INSERT INTO mode VALUES ('$mode')")
        extra.foreach(s.executeUpdate)
      }
    }
  }

  private def run(): AbscResult = absc(AbsBackend, "run", "--cache-dir", cache.toString, model)

  /** The failure report of a run that died in a query: exit status 1 and the line naming it. */
  private def failure(r: AbscResult, line: Int, what: String): Unit = {
    assertEquals(1, r.status, r.err)
    val col = Files.readAllLines(Paths.get(model)).get(line - 1).indexOf("builtin(") + 1
    assertTrue(r.err.contains(s"SQLite query at db.abs:$line:$col: $what"), r.err)
  }

  @Test def queriesConvertColumnsAndBindParametersByPosition(): Unit = {
    database("all")
    val r = run()
    assertEquals(0, r.status, r.err)
    assertEquals(
      """list["Ada","Bob","Zoë"] list[36,17,52] list[1.65,2.0,1.8] list[1/4,1,1/10] list[True,False,True]
        |Person("Ada",36,1.65,1/4,True)
        |Person("Bob",17,2.0,1,False)
        |Person("Zoë",52,1.8,1/10,True)
        |older: list[Person("Ada",36,1.65,1/4,True),Person("Zoë",52,1.8,1/10,True)] list[Person("Bob",17,2.0,1,False)]
        |matching: list["Ada","Bob","Zoë"]
        |none: list[]
        |""".stripMargin, r.programOut)
  }

  /**
   * Issue 27, item 4: `absc package` carries the JDBC driver (12 MB) only for a model that queries
   * (PackageCommandTest checks one that does not), and the packaged model queries as `absc run` does.
   */
  @Test def aPackagedModelThatQueriesCarriesTheDriver(): Unit = {
    database("ages")
    val out = dir.resolve("pkg")
    val r = absc(AbsBackend, "package", "--cache-dir", cache.toString, "-o", out.toString, model)
    assertEquals(0, r.status, r.err)
    val libs = Using.resource(Files.list(out.resolve("lib")))(_.iterator.asScala.map(_.getFileName.toString).toList)
    assertTrue(libs.exists(_.startsWith("sqlite-jdbc")), s"the driver is packaged: $libs")
    val pb = new ProcessBuilder("bash", out.resolve("bin/db").toString).redirectErrorStream(true)
    pb.environment().put("JAVA_HOME", System.getProperty("java.home"))
    pb.environment().put("ABSC_NO_CDS", "1")
    val p = pb.start()
    val text = new String(p.getInputStream.readAllBytes(), java.nio.charset.StandardCharsets.UTF_8)
    assertTrue(p.waitFor(60, java.util.concurrent.TimeUnit.SECONDS), text)
    assertEquals(0, p.exitValue, text)
    assertEquals("list[36,17,52]\n", text)
  }

  @Test def aMissingDatabaseFileIsAnErrorAtTheBuiltinAndIsNotCreated(): Unit = {
    Files.deleteIfExists(db)
    val r = run()
    failure(r, 4, s"the database file '${Paths.get("").toAbsolutePath.relativize(db)}' does not exist (looked for $db)")
    assertFalse(Files.exists(db), "the query created the database")
  }

  @Test def aQuerySQLiteRejectsIsAnErrorWithSQLitesMessage(): Unit = {
    database("misspelt")
    val r = run()
    failure(r, 14, "")
    assertTrue(r.err.contains("syntax error"), r.err)
  }

  @Test def aValueOfTheWrongSQLTypeNamesTheRowAndColumn(): Unit = {
    database("nameAsInt")
    failure(run(), 15, "row 1, column 1 ('name') is the TEXT 'Ada'; an Int needs an INTEGER")
    database("ages", "UPDATE people SET age = NULL WHERE id = 2")
    failure(run(), 6, "row 2, column 1 ('age') is NULL; an Int needs an INTEGER")
    database("ages", "UPDATE people SET age = 17.5 WHERE id = 2")
    failure(run(), 6, "row 2, column 1 ('age') is the REAL 17.5; an Int needs an INTEGER")
  }

  @Test def theParametersAndColumnsMustMatchTheQuery(): Unit = {
    database("oneParam")
    failure(run(), 16, "the query has 2 '?' parameters, the builtin gives 1 parameter")
    database("narrow")
    failure(run(), 17, "the query gives 2 columns a row, the function's result needs 5 (one per constructor argument)")
  }

  @Test def theCheckerRejectsQueriesThatCannotConvert(): Unit = {
    val bad = absFile(dir, "bad",
      """module Bad;
        |data Two = A(Int) | B(Int);
        |data Nested = Nested(List<Int>);
        |def List<Two> two() = builtin(sqlite3, "x.db", "SELECT 1");
        |def List<Nested> nested() = builtin(sqlite3, "x.db", "SELECT 1");
        |def Int notAList() = builtin(sqlite3, "x.db", "SELECT 1");
        |def List<Int> param(List<Int> l) = builtin(sqlite3, "x.db", "SELECT ?", l);
        |def List<Int> template(Int i) = builtin(sqlite3, "x.db", `SELECT $i$`);
        |def List<Int> file(String f) = builtin(sqlite3, f, "SELECT 1");
        |def List<Int> short() = builtin(sqlite3, "x.db");
        |def List<Int> typo(Int i) = builtin(sqlite3, "x.db", "SELECT ?", i + "a");
        |""".stripMargin)
    val r = absc(AbsBackend, "check", bad)
    assertEquals(2, r.status, r.err)
    val need = "an SQLite query function must return a List of Int, Float, Rat, Bool or String values, or of a data type " +
      "with one constructor whose arguments are such values (one per column): "
    for (expected <- List(
      s"bad.abs:4:5: error: $need'Two' has 2 constructors",
      s"bad.abs:5:5: error: ${need}the constructor 'Nested' of 'Nested' has an argument of type List<Int>",
      s"bad.abs:6:5: error: ${need}found Int",
      "bad.abs:7:73: error: an SQLite query parameter must be an Int, Float, Rat, Bool or String, found List<Int>",
      "bad.abs:8:58: error: the SQL text of an SQLite query must be a string literal (a template string with $..$ holes is not; pass values as '?' parameters)",
      "bad.abs:9:49: error: the database file of an SQLite query must be a string literal",
      "bad.abs:10:25: error: an SQLite query is builtin(sqlite3, \"database file\", \"SQL text\", parameters..): found 2 arguments",
      "bad.abs:11:66: error: operator '+' cannot join a String and an Int"))
      assertTrue(r.err.contains(expected), s"missing: $expected\n${r.err}")
  }
}
