package cogs.absc.typecheck

/**
 * What the checker and the lowering agree on about SQLite query functions,
 * `def List<T> f(..) = builtin(sqlite3, "file", "SQL", params..)`: which ABS types cross the
 * boundary, and how a row of the result becomes a `T`. The kinds are the names
 * `cogs.absc.lib.Sqlite` converts by ("Int", "Float", "Rat", "Bool", "String").
 */
object SqliteQuery {

  /** The first argument of the `builtin` that makes a function an SQLite query. */
  final val Keyword = "sqlite3"

  /** How each row of the result becomes a value of the list's element type. */
  sealed trait Shape
  /** One column, the value itself. */
  final case class Single(kind: String) extends Shape
  /** One column per argument of the data type's only constructor. */
  final case class Row(ctor: ConstructorSym, kinds: List[String]) extends Shape

  /** The kind of a value SQLite can take or give as `t`, if it is one. */
  def valueKind(b: Builtins, t: Type): Option[String] =
    if (b.isInt(t)) Some("Int")
    else if (b.isFloat(t)) Some("Float")
    else if (b.isRat(t)) Some("Rat")
    else if (b.isBool(t)) Some("Bool")
    else if (b.isString(t)) Some("String")
    else None

  /** The shape of the rows of a query function returning `result`, or why it cannot return that. */
  def rowShape(b: Builtins, result: Type): Either[String, Shape] = result match {
    case b.ListT(elem) =>
      valueKind(b, elem) match {
        case Some(k) => Right(Single(k))
        case None => elem match {
          case Type.Data(d, _) => d.constructors match {
            case List(c) if c.argTypes.isEmpty => Left(s"the constructor '${c.name}' of '${d.name}' has no arguments")
            case List(c) =>
              val kinds = c.argTypes.map(valueKind(b, _))
              kinds.zip(c.argTypes).collectFirst { case (None, t) => t } match {
                case Some(t) => Left(s"the constructor '${c.name}' of '${d.name}' has an argument of type ${t.show}")
                case None => Right(Row(c, kinds.flatten))
              }
            case cs => Left(s"'${d.name}' has ${cs.length} constructors")
          }
          case _ => Left(s"found ${result.show}")
        }
      }
    case _ => Left(s"found ${result.show}")
  }
}
