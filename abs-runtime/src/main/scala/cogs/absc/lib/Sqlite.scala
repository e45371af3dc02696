package cogs.absc.lib

import java.nio.file.{Files, Paths}
import java.sql.{DriverManager, PreparedStatement, ResultSet, SQLException}
import java.util.Properties

import scala.util.Using

/**
 * A failed SQLite query: the database file is missing, SQLite rejects the query, or a value does
 * not convert. Not an ABS exception (no ABS pattern names it, so no `catch` takes it): in the
 * reference backends such a failure ends the run, and here it ends the process that called the
 * query function, reported with the `builtin`'s place and what went wrong.
 */
final class SqliteQueryFailed private[lib] (message: String) extends RuntimeException(message, null, false, false)

/**
 * ABS functions defined as `builtin(sqlite3, "file", "SQL", params..)` (the ABS manual, "Embedded
 * SQLite database queries"), through JDBC and the SQLite driver on the class path. The
 * generated function calls [[query]] with the kinds its types give (`cogs.absc.typecheck.SqliteQuery`):
 *
 * {{{
 * def List<Row> rows(Int min) = builtin(sqlite3, "db.sqlite3", "SELECT a, b FROM t WHERE a > ?", min);
 *   =>
 * def rows(min: AbsInt): List[Row] =
 *   Sqlite.query("m.abs:3:31", "db.sqlite3", "SELECT ..", List(("Int", min)), List("Int", "String"))(
 *     r$ => Row(r$(0).asInstanceOf[AbsInt], r$(1).asInstanceOf[String]))
 * }}}
 *
 * Conversions, as the manual gives them: a parameter `Int` is bound as an INTEGER, `Float` and
 * `Rat` as a REAL, `Bool` as 1 or 0, `String` as TEXT; a column becomes an `Int` from an INTEGER,
 * a `Float` or `Rat` from an INTEGER or a REAL (a REAL `Rat` as `rat` of it), a `Bool` from an
 * INTEGER (0 is False), a `String` from a TEXT. Anything else (a NULL, a BLOB, a REAL where an
 * `Int` is expected, a TEXT where a number is) is an error naming the row and column, not a
 * silent conversion. The number of `?`s must match the parameters and the number of columns the
 * row shape (one, or one per constructor argument).
 *
 * A relative file name is resolved against the working directory, as the reference backends do.
 * The database is opened read-only: ABS functions have no effects, and a missing file must not be
 * created as an empty database. One connection per call, closed before the result is returned,
 * so calls from several COGs at once share nothing.
 */
object Sqlite {

  /** SQLite's `SQLITE_OPEN_READONLY`, the driver's `open_mode` property. */
  private final val OpenReadOnly = "1"

  def query[A](at: String, db: String, sql: String, params: Seq[(String, Any)], columns: Seq[String])(
      row: IndexedSeq[Any] => A): List[A] = {
    def fail(what: String): Nothing = throw new SqliteQueryFailed(s"SQLite query at $at: $what")
    val file = Paths.get(db).toAbsolutePath.normalize
    if (!Files.exists(file)) fail(s"the database file '$db' does not exist (looked for $file)")
    if (!Files.isRegularFile(file) || !Files.isReadable(file)) fail(s"the database file '$db' is not a readable file ($file)")
    val props = new Properties
    props.setProperty("open_mode", OpenReadOnly)
    try
      Using.resource(DriverManager.getConnection("jdbc:sqlite:" + file, props)) { connection =>
        Using.resource(connection.prepareStatement(sql)) { st =>
          val expected = st.getParameterMetaData.getParameterCount
          if (expected != params.length)
            fail(s"the query has ${count(expected, "'?' parameter")}, the builtin gives ${count(params.length, "parameter")}")
          for (((kind, value), i) <- params.zipWithIndex) bind(st, i + 1, kind, value, fail)
          Using.resource(st.executeQuery()) { rs =>
            val n = rs.getMetaData.getColumnCount
            if (n != columns.length)
              fail(s"the query gives ${count(n, "column")} a row, the function's result needs ${columns.length}" +
                (if (columns.length == 1) "" else " (one per constructor argument)"))
            val out = List.newBuilder[A]
            var r = 0
            while (rs.next()) {
              r += 1
              out += row(columns.indices.map(i => column(rs, r, i + 1, columns(i), fail)))
            }
            out.result()
          }
        }
      }
    catch {
      case e: SQLException => fail(Option(e.getMessage).getOrElse(e.getClass.getSimpleName))
    }
  }

  private def count(n: Int, what: String): String = if (n == 1) s"1 $what" else s"$n ${what}s"

  private def bind(st: PreparedStatement, i: Int, kind: String, value: Any, fail: String => Nothing): Unit = kind match {
    case "Int" =>
      val v = value.asInstanceOf[AbsInt]
      if (!v.isLong) fail(s"parameter $i, $v, does not fit SQLite's 64-bit INTEGER")
      st.setLong(i, v.toLong)
    case "Float" => st.setDouble(i, value.asInstanceOf[Double])
    case "Rat" => st.setDouble(i, value.asInstanceOf[AbsRat].toDouble)
    case "Bool" => st.setInt(i, if (value.asInstanceOf[Boolean]) 1 else 0)
    case "String" => st.setString(i, value.asInstanceOf[String])
    case other => throw new IllegalArgumentException(s"absc: no SQLite parameter kind '$other'")
  }

  private def column(rs: ResultSet, row: Int, i: Int, kind: String, fail: String => Nothing): Any = {
    val v = rs.getObject(i)
    def wrong(): Nothing = {
      val name = rs.getMetaData.getColumnName(i)
      val what = v match {
        case null => "NULL"
        case _: java.lang.Integer | _: java.lang.Long => s"the INTEGER $v"
        case _: java.lang.Double | _: java.lang.Float => s"the REAL $v"
        case s: String => s"the TEXT '$s'"
        case _: Array[Byte] => "a BLOB"
        case other => s"$other"
      }
      val needs = kind match {
        case "Int" | "Bool" => "an INTEGER"
        case "Float" | "Rat" => "an INTEGER or a REAL"
        case _ => "a TEXT"
      }
      val article = if (kind == "Int") "an" else "a"
      fail(s"row $row, column $i ('$name') is $what; $article $kind needs $needs")
    }
    (kind, v) match {
      case ("Int" | "Rat", n: java.lang.Integer) => AbsInt(n.longValue)
      case ("Int" | "Rat", n: java.lang.Long) => AbsInt(n.longValue)
      case ("Rat", d: java.lang.Double) => rat(d.doubleValue)
      case ("Float", n: java.lang.Integer) => n.doubleValue
      case ("Float", n: java.lang.Long) => n.doubleValue
      case ("Float", d: java.lang.Double) => d.doubleValue
      case ("Bool", n: java.lang.Integer) => n.intValue != 0
      case ("Bool", n: java.lang.Long) => n.longValue != 0L
      case ("Bool", b: java.lang.Boolean) => b.booleanValue
      case ("String", s: String) => s
      case ("Int" | "Float" | "Rat" | "Bool" | "String", _) => wrong()
      case (other, _) => throw new IllegalArgumentException(s"absc: no SQLite column kind '$other'")
    }
  }
}
