package cogs.absc.typecheck

import scala.jdk.CollectionConverters._

import cogs.absc.ast._
import cogs.absc.diag.Diagnostic

/**
 * One run of the checker over a whole program. The phases:
 *
 *  1. modules: declarations become symbols, imports and exports are resolved ([[Modules]]);
 *  2. signatures: type synonyms, data types, interfaces, classes (with traits applied)
 *     and functions get their types ([[SignaturePhase]]);
 *  3. bodies: functions, field initialisers, init and recovery blocks, methods and main
 *     blocks are checked, recording the type of every expression and what every name
 *     denotes ([[ExpressionPhase]], [[StatementPhase]]);
 *  4. effects: which methods and blocks may reach a scheduling point ([[EffectPhase]]);
 *  5. every recorded type is resolved (no inference variable survives) and the
 *     `TypedProgram` is assembled.
 */
private[typecheck] final class Checker(val units: List[CompilationUnit])
    extends CheckerBase with SignaturePhase with ExpressionPhase with StatementPhase with EffectPhase
    with SchedulerAnnotations with TimedAnnotations with HttpAnnotations {

  def run(): Either[List[Diagnostic], TypedProgram] = {
    mods.resolveAll()
    checkSignatures()
    checkBodies()
    checkEffects()
    val diagnostics = rep.all
    if (diagnostics.exists(_.isError)) Left(diagnostics)
    else {
      resolveTables()
      Right(new TypedProgram(mods.modules, units, b, tables, diagnostics.filterNot(_.isError)))
    }
  }

  private def resolveTables(): Unit = {
    for (e <- tables.types.entrySet.asScala) e.setValue(inf.resolve(e.getValue))
    for (e <- tables.typeArgs.entrySet.asScala) e.setValue(e.getValue.map(inf.resolve))
    for (m <- mods.modules; s <- m.decls) s match {
      case c: ClassSym =>
        c.fields.foreach(f => f.t = inf.resolve(f.t))
      case _ =>
    }
    for (l <- locals) l.t = inf.resolve(l.t)
  }
}

/** State and helpers shared by the phases. */
private[typecheck] trait CheckerBase {

  def units: List[CompilationUnit]

  val rep = new Reporter(Prelude.FileName :: units.map(_.file))
  val mods = new Modules(units, Prelude.unit, rep)
  val b = new Builtins(mods.stdlib)
  val inf = new Inference(b)
  val tables = new Tables

  /** Every local symbol created, so that their types can be resolved at the end. */
  val locals = scala.collection.mutable.ArrayBuffer.empty[LocalSym]

  def newLocal(name: String, kind: LocalKind, decl: Node, pos: Pos, tpe: Type): LocalSym = {
    val l = new LocalSym(name, kind, decl, pos)
    l.t = tpe
    locals += l
    l
  }

  def error(pos: Pos, msg: String): Unit = rep.error(pos, msg)
  def warning(pos: Pos, msg: String): Unit = rep.warning(pos, msg)

  def record(n: Node, t: Type): Type = {
    tables.types.put(n, t)
    t
  }

  def refer(n: Node, s: Symbol): Unit = {
    metaUse(n.pos, s)
    tables.refs.put(n, s)
  }

  private val metaReported = scala.collection.mutable.HashSet.empty[Pos]

  /**
   * A use of a name of ABS.Meta from outside it (every name use is recorded by [[refer]] or
   * resolved by [[resolveType]]): declared so that importing the module costs nothing, but not
   * supported (see `library/ABS.Meta.abs`).
   */
  private def metaUse(pos: Pos, s: Symbol): Unit = s match {
    case d: DeclSym if d.module.name == Library.MetaModule && pos.file != Library.fileOf(Library.MetaModule) &&
        metaReported.add(pos) =>
      val why =
        if (Checker.Reconfiguration(d.name))
          "it reconfigures the running product (delta application at run time), which only the reference " +
            "toolchain's deprecated dynamic Java backend does; absc compiles one product, flattened before " +
            "compiling (-p PRODUCT), whose classes cannot change while it runs"
        else
          "it reflects on and changes the running model (an object's class, fields and COG, a COG's " +
            "scheduler, the methods of a class), which only the reference toolchain's deprecated dynamic Java " +
            "backend does; absc compiles classes ahead of time into JVM classes that cannot change while the model runs"
      error(pos, s"${d.kind} '${d.name}' of module ABS.Meta is not supported, because $why")
    case _ =>
  }

  // ---------------------------------------------------------------------------------
  // Messages

  def plural(n: Int, what: String): String = if (n == 1) s"1 $what" else s"$n ${what}s"

  def at(p: Pos, here: Pos): String = Modules.at(p, here)

  def show(t: Type): String = t.show

  /** `type mismatch: expected T, found S`, with a hint for common cases. */
  def mismatch(pos: Pos, expected: Type, found: Type, what: String = "", hints: Boolean = true): Unit =
    if (!Type.hasError(expected) && !Type.hasError(found)) {
      val e = inf.current(expected)
      val f = inf.current(found)
      val hint = (e, f) match {
        case (Type.Iface(i), Type.Obj(c)) => s"; class '${c.name}' does not implement interface '${i.name}'"
        case _ if b.isInt(e) && b.isRat(f) => "; use truncate(..) to turn a Rat into an Int (integer division '/' gives a Rat)"
        case _ if b.isString(e) && !b.isString(f) && !f.isInstanceOf[Type.Var] => "; use toString(..) to turn a value into a String"
        case _ if (b.isFloat(e) && (b.isInt(f) || b.isRat(f))) => "; use float(..) to turn a number into a Float"
        case (_, b.FutT(_)) if b.FutT.unapply(e).isEmpty && !b.isDestiny(e) && !e.isInstanceOf[Type.Var] =>
          "; use '.get' or 'await' to obtain the value of a future"
        case _ => ""
      }
      error(pos, s"type mismatch${what}: expected ${show(expected)}, found ${show(found)}${if (hints) hint else ""}")
    }

  /** Records the constraint `found <: expected`, or reports a mismatch. */
  def expect(pos: Pos, found: Type, expected: Type, what: String = ""): Boolean =
    if (inf.sub(found, expected)) true
    else {
      mismatch(pos, expected, found, what)
      false
    }

  // ---------------------------------------------------------------------------------
  // Name lookup with messages

  import Modules._

  /**
   * Looks a name up in a name space of module `m`; reports unknown, ambiguous and hidden
   * names (with suggestions, and the import to add for deployment names).
   */
  def lookup(m: ModuleSym, ns: Namespace, n: QName, pos: Pos, what: String = ""): Option[DeclSym] = {
    val label = if (what.isEmpty) ns.label else what
    mods.lookup(m, ns, n) match {
      case Found(s) => Some(s)
      case Ambiguous(ss) =>
        error(pos, s"$label '$n' is ambiguous: it may be ${ss.map(s => s"'${s.qualifiedName}'").sorted.mkString(" or ")}; " +
          "write the qualified name")
        None
      case NotExported(src) =>
        error(pos, s"$label '${n.name}' is not exported by module '${src.name}'")
        None
      case UnknownModule(mn) =>
        Unsupported.Modules.get(mn) match {
          case Some(w) => error(pos, s"$w is not supported yet")
          case None => error(pos, s"unknown module '$mn'" + Suggest.hint(mn, mods.byName.keys))
        }
        None
      case Missing =>
        Unsupported.forName(ns, n.name) match {
          case Some(w) if !n.isQualified || n.module.contains(Prelude.ModuleName) =>
            error(pos, s"$w is in the module ABS.DC: add 'import * from ABS.DC;' to module '${m.name}'")
          case _ =>
            error(pos, s"unknown $label '$n'" + Suggest.hint(n.name, mods.visibleNames(m, ns)))
        }
        None
    }
  }

  /** Looks a name up without reporting anything. */
  def find(m: ModuleSym, ns: Namespace, n: QName): Option[DeclSym] = mods.lookup(m, ns, n) match {
    case Found(s) => Some(s)
    case _ => None
  }

  // ---------------------------------------------------------------------------------
  // Types as written

  /** Resolves a written type (synonyms expanded) and records it for the node. */
  def resolveType(t: TypeRef, m: ModuleSym, tps: Map[String, TypeParamSym]): Type = {
    checkAnnotations(t.annotations, "type")
    val res = resolveTypeNoRecord(t, m, tps)
    tables.types.put(t, res)
    res
  }

  private def resolveTypeNoRecord(t: TypeRef, m: ModuleSym, tps: Map[String, TypeParamSym]): Type = {
    val args = t.args.map(resolveType(_, m, tps))
    def arity(expected: Int, name: String): Boolean =
      if (args.length == expected) true
      else {
        if (expected == 0) error(t.pos, s"type '$name' takes no type arguments")
        else error(t.pos, s"type '$name' expects ${plural(expected, "type argument")}, found ${args.length}")
        false
      }
    if (!t.name.isQualified && tps.contains(t.name.name)) {
      if (arity(0, t.name.name)) Type.Param(tps(t.name.name)) else Type.Error
    } else mods.lookup(m, Namespace.Type, t.name) match {
      case Found(d: DataTypeSym) =>
        if (arity(d.tparams.length, d.name)) Type.Data(d, args) else Type.Error
      case Found(i: InterfaceSym) =>
        metaUse(t.pos, i)
        if (arity(0, i.name)) Type.Iface(i) else Type.Error
      case Found(s: TypeSynSym) =>
        val rhs = synonym(s)
        if (arity(s.tparams.length, s.name)) Type.subst(rhs, s.tparams.zip(args).toMap) else Type.Error
      case Missing if find(m, Namespace.Constructor, t.name).exists {
            case c: ConstructorSym => c.isException
            case _ => false
          } =>
        // an exception's name also names its type, which is ABS.StdLib.Exception
        if (arity(0, t.name.name)) b.ExceptionT else Type.Error
      case Missing if find(m, Namespace.Class, t.name).isDefined =>
        error(t.pos, s"'${t.name}' is a class, not a type: objects are typed by the interfaces their class implements")
        Type.Error
      case _ =>
        lookup(m, Namespace.Type, t.name, t.pos)
        Type.Error
    }
  }

  private val synState = new java.util.IdentityHashMap[TypeSynSym, Integer]

  /** The expansion of a type synonym, resolving it first if needed (and reporting cycles). */
  def synonym(s: TypeSynSym): Type = Option(synState.get(s)).map(_.intValue).getOrElse(0) match {
    case 2 => s.rhs
    case 1 =>
      error(s.pos, s"type synonym '${s.name}' is defined in terms of itself")
      synState.put(s, 2)
      s.rhs = Type.Error
      Type.Error
    case _ =>
      synState.put(s, 1)
      val tps = typeParams(s.decl.typeParams, s.module)
      s.tparams = tps
      val rhs = resolveType(s.decl.rhs, s.module, tps.map(p => p.name -> p).toMap)
      if (synState.get(s).intValue == 1) {
        s.rhs = rhs
        synState.put(s, 2)
      }
      s.rhs
  }

  /** Type parameter symbols, reporting duplicates. */
  def typeParams(ps: List[TypeParam], m: ModuleSym): List[TypeParamSym] = {
    val seen = scala.collection.mutable.HashMap.empty[String, TypeParam]
    ps.map { p =>
      seen.get(p.name) match {
        case Some(prev) => error(p.pos, s"type parameter '${p.name}' is already declared at ${at(prev.pos, p.pos)}")
        case None => seen(p.name) = p
      }
      find(m, Namespace.Type, QName(p.name)).foreach { t =>
        error(p.pos, s"type parameter '${p.name}' has the name of the ${t.kind} '${t.qualifiedName}'; choose another name")
      }
      new TypeParamSym(p.name, p.pos)
    }
  }

  // ---------------------------------------------------------------------------------
  // Annotations

  /**
   * Checks the annotations of a node: deployment annotations are errors ("not supported
   * yet"); unknown ones and those Cogs does not support are warnings. `site` says where
   * they are, for `[Final]`, `[Atomic]` and `[Readonly]` that only apply to some places.
   */
  def checkAnnotations(as: List[Annotation], site: String): Unit = for (a <- as) {
    Annotations.nameOf(a) match {
      case None =>
        warning(a.pos, "this annotation is not understood; it is ignored")
      case Some(n) if Annotations.Deployment(n) =>
        error(a.pos, s"the deployment annotation '$n' is not supported yet")
      case Some(n @ "Final") if a.tag.isEmpty =>
        if (!Set("variable", "field", "parameter")(site))
          warning(a.pos, s"'[$n]' applies to variables, fields and parameters; it is ignored here")
      case Some(n @ ("Atomic" | "Readonly")) if a.tag.isEmpty =>
        if (site != "method") warning(a.pos, s"'[$n]' applies to methods; it is ignored here")
      case Some(n) if Annotations.Ignored(n) =>
      case Some(n) if Annotations.Timed(n) && a.tag.nonEmpty => // TimedAnnotations
      case Some(Annotations.Scheduler) if a.tag.nonEmpty => // SchedulerAnnotations
      case Some(Annotations.HttpName) if a.tag.nonEmpty => // HttpAnnotations
      case Some(Annotations.Foreign) if a.tag.isEmpty => // on a class: SignaturePhase
      case Some(Annotations.HttpCallable) if a.tag.isEmpty =>
        if (site != "method") warning(a.pos, s"'[${Annotations.HttpCallable}]' applies to method declarations of interfaces; it is ignored here")
      case Some(n) if n.equalsIgnoreCase("Priority") =>
        // Checked against the reference (abstools at 139ec809f): neither its Java nor its Erlang
        // backend reads such an annotation, and the manual does not define one; so ignoring it
        // schedules as the reference does. Priorities are written as a scheduler function.
        warning(a.pos, s"annotation '$n' is ignored, as the reference backends ignore it: no ABS backend schedules by it; " +
          "to prefer some processes, give the COG a scheduler ([Scheduler: f(queue)], module ABS.Scheduler)")
      case Some(n) if Annotations.Unsupported.contains(n) =>
        warning(a.pos, s"annotation '$n' (${Annotations.Unsupported(n)}) is not supported; it is ignored")
      case Some(n) =>
        warning(a.pos, s"unknown annotation '$n' is ignored")
    }
  }
}

private[typecheck] object Checker {
  /** The names of ABS.Meta that serve product reconfiguration (the others serve reflection). */
  val Reconfiguration: Set[String] = Set("getProductLine", "Runtime", "ProductLine", "Product", "Delta", "Feature")
}
