package cogs.absc.typecheck

/**
 * ABS types, as the checker computes them.
 *
 * Type synonyms are always expanded, so a `Type` never names one. The built-in types are
 * data types of the prelude: `Int` is `Data(<ABS.StdLib.Int>, Nil)`, a future is
 * `Data(<ABS.StdLib.Fut>, List(t))`; use the extractors of [[Builtins]] (`b.IntT`,
 * `b.FutT(t)`, ...) to recognise them.
 *
 * Subtyping (see [[Subtyping]]): `Int <: Rat` (Float is separate); data types are
 * covariant in their arguments (values are immutable); an interface is a subtype of the
 * interfaces it extends, transitively, and of `ABS.StdLib.Object`; `Fut<T> <: Destiny`;
 * `null` has every interface type and every future type; an object of class `C` (the type of `this` and of
 * `new C(..)`) has every interface type `C` implements.
 */
sealed trait Type {
  /** The type as a modeller writes it: `List<Pair<Int, String>>`. */
  def show: String = Type.show(this)
  override def toString: String = show
}

object Type {

  /** A data type applied to arguments (also every built-in type). */
  final case class Data(sym: DataTypeSym, args: List[Type]) extends Type

  /** An interface type. */
  final case class Iface(sym: InterfaceSym) extends Type

  /**
   * An object of class `cls`: the type of `this` in `cls`, and of `new cls(..)`. It is a
   * subtype of every interface `cls` implements; through it, also the class's own
   * methods can be called (`this.m()`).
   */
  final case class Obj(cls: ClassSym) extends Type

  /** A type parameter (inside a parametric function or data type declaration). */
  final case class Param(sym: TypeParamSym) extends Type

  /**
   * A first-order function type. Only function parameters of partial functions have one:
   * ABS has no function values.
   */
  final case class Fun(params: List[Type], result: Type) extends Type

  /** The type of `null`. */
  case object Null extends Type

  /**
   * The type without values: of `.get` on a `Destiny`, and the type argument chosen for a
   * type parameter nothing constrains (`Nil` alone is a `List<Bottom>`). It is a subtype
   * of every type.
   */
  case object Bottom extends Type

  /** The type of an expression that had an error; it is compatible with every type. */
  case object Error extends Type

  /**
   * A type variable of the inference (see [[Inference]]). Never present in a
   * `TypedProgram`: every recorded type is resolved before the program is returned.
   */
  final class Var private[typecheck] (val id: Int, val hint: String) extends Type {
    private[typecheck] var link: Var = null
    private[typecheck] var lower: Type = null
    private[typecheck] var uppers: List[Type] = Nil
    override def hashCode: Int = id
    override def equals(o: Any): Boolean = o.isInstanceOf[Var] && (o.asInstanceOf[Var] eq this)
  }

  def show(t: Type): String = t match {
    case Data(d, Nil) => d.name
    case Data(d, args) => args.map(show).mkString(s"${d.name}<", ", ", ">")
    case Iface(i) => i.name
    case Obj(c) => c.name
    case Param(p) => p.name
    case Fun(ps, r) => ps.map(show).mkString("(", ", ", s") => ${show(r)}")
    case Null => "null"
    case Bottom => "Bottom"
    case Error => "<error>"
    case v: Var =>
      val p = Inference.prune(v)
      if (p ne v) show(p)
      else if (v.lower != null) show(v.lower)
      else if (v.uppers.nonEmpty) show(v.uppers.head)
      else v.hint
  }

  /** Type parameters replaced by the given types. */
  def subst(t: Type, m: Map[TypeParamSym, Type]): Type =
    if (m.isEmpty) t
    else t match {
      case Param(p) => m.getOrElse(p, t)
      case Data(d, args) => Data(d, args.map(subst(_, m)))
      case Fun(ps, r) => Fun(ps.map(subst(_, m)), subst(r, m))
      case v: Var =>
        val p = Inference.prune(v)
        if (p ne v) subst(p, m) else v
      case other => other
    }

  /** Does `t` mention an error (so that a message about it would only repeat an earlier one)? */
  def hasError(t: Type): Boolean = t match {
    case Error => true
    case Data(_, args) => args.exists(hasError)
    case Fun(ps, r) => ps.exists(hasError) || hasError(r)
    case v: Var =>
      val p = Inference.prune(v)
      if (p ne v) hasError(p) else v.lower != null && hasError(v.lower)
    case _ => false
  }
}

/**
 * The built-in types of the prelude, found by name once the prelude is resolved, with
 * constructors and extractors: `b.IntT` is the type `Int`, and `case b.FutT(t) =>`
 * matches a future type.
 */
final class Builtins private[typecheck] (std: ModuleSym) {
  private def data(n: String): DataTypeSym = std.decls.collectFirst { case d: DataTypeSym if d.name == n => d }
    .getOrElse(throw new IllegalStateException(s"absc: prelude lacks data type $n"))

  val int: DataTypeSym = data("Int")
  val rat: DataTypeSym = data("Rat")
  val float: DataTypeSym = data("Float")
  val string: DataTypeSym = data("String")
  val bool: DataTypeSym = data("Bool")
  val unit: DataTypeSym = data("Unit")
  val fut: DataTypeSym = data("Fut")
  val destiny: DataTypeSym = data("Destiny")
  val exception: DataTypeSym = data("Exception")
  val list: DataTypeSym = data("List")
  val set: DataTypeSym = data("Set")
  val map: DataTypeSym = data("Map")
  val pair: DataTypeSym = data("Pair")
  val maybe: DataTypeSym = data("Maybe")
  val objectIface: InterfaceSym = std.decls.collectFirst { case i: InterfaceSym if i.name == "Object" => i }
    .getOrElse(throw new IllegalStateException("absc: prelude lacks interface Object"))

  val IntT: Type = Type.Data(int, Nil)
  val RatT: Type = Type.Data(rat, Nil)
  val FloatT: Type = Type.Data(float, Nil)
  val StringT: Type = Type.Data(string, Nil)
  val BoolT: Type = Type.Data(bool, Nil)
  val UnitT: Type = Type.Data(unit, Nil)
  val DestinyT: Type = Type.Data(destiny, Nil)
  val ExceptionT: Type = Type.Data(exception, Nil)
  val ObjectT: Type = Type.Iface(objectIface)

  object FutT {
    def apply(t: Type): Type = Type.Data(fut, List(t))
    def unapply(t: Type): Option[Type] = t match {
      case Type.Data(d, List(a)) if d eq fut => Some(a)
      case _ => None
    }
  }

  object ListT {
    def apply(t: Type): Type = Type.Data(list, List(t))
    def unapply(t: Type): Option[Type] = t match {
      case Type.Data(d, List(a)) if d eq list => Some(a)
      case _ => None
    }
  }

  def isInt(t: Type): Boolean = is(t, int)
  def isRat(t: Type): Boolean = is(t, rat)
  def isFloat(t: Type): Boolean = is(t, float)
  def isString(t: Type): Boolean = is(t, string)
  def isBool(t: Type): Boolean = is(t, bool)
  def isUnit(t: Type): Boolean = is(t, unit)
  def isDestiny(t: Type): Boolean = is(t, destiny)
  def isException(t: Type): Boolean = is(t, exception)
  def isNumeric(t: Type): Boolean = isInt(t) || isRat(t) || isFloat(t)

  private def is(t: Type, d: DataTypeSym): Boolean = t match {
    case Type.Data(x, _) => x eq d
    case _ => false
  }
}
