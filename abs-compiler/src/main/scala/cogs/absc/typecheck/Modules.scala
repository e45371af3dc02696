package cogs.absc.typecheck

import scala.collection.mutable

import cogs.absc.ast._

/**
 * The module system: which declarations each module defines, exports and sees.
 *
 * A module sees its own declarations (as `x` and `M.x`) and what its imports bring in:
 * `import * from N;` and `import x from N;` make names visible as `x` and `N.x`,
 * `import N.x;` as `N.x` only. Every module imports `ABS.StdLib` unless an import clause
 * names it. Own declarations hide names imported from `ABS.StdLib` (so a model may define
 * its own `size`); a clash with a name imported from another module is an error. A
 * qualified name `N.x` also resolves when `N` exports `x` but nothing imported it.
 *
 * Exports: `export *;` (own declarations), `export x, y;` (own), `export * from N;` and
 * `export x from N;` (names imported from `N`, re-exported).
 */
private[typecheck] final class Modules(units: List[CompilationUnit], prelude: CompilationUnit, rep: Reporter) {

  import Modules._

  type Key = (Namespace, String)

  val modules: List[ModuleSym] = {
    val seen = mutable.LinkedHashMap.empty[String, ModuleSym]
    val all = prelude.modules.map(m => (m, true)) ++ units.flatMap(_.modules.map(m => (m, false)))
    all.flatMap { case (m, isPrelude) =>
      seen.get(m.name) match {
        case Some(prev) =>
          val what = if (prev.isPrelude) "the standard library module" else "module"
          rep.error(m.pos, s"$what '${m.name}' is already defined" + (if (prev.isPrelude) "" else s" at ${at(prev.pos, m.pos)}"))
          None
        case None =>
          val sym = new ModuleSym(m.name, m, isPrelude)
          seen(m.name) = sym
          Some(sym)
      }
    }
  }

  val byName: Map[String, ModuleSym] = modules.map(m => m.name -> m).toMap

  val stdlib: ModuleSym = byName(Prelude.ModuleName)

  /** Own declarations of each module, by name space and simple name. */
  private val defined = mutable.HashMap.empty[ModuleSym, mutable.LinkedHashMap[Key, DeclSym]]

  /** Exceptions need `ABS.StdLib.Exception`, found once the prelude's declarations exist. */
  private var exceptionType: DataTypeSym = _

  // ---------------------------------------------------------------------------------
  // Declarations

  modules.foreach(declare)

  private def declare(m: ModuleSym): Unit = {
    val table = mutable.LinkedHashMap.empty[Key, DeclSym]
    defined(m) = table
    val decls = mutable.ListBuffer.empty[DeclSym]

    def define(s: DeclSym): Unit = {
      val key = (s.namespace, s.name)
      table.get(key) match {
        case Some(prev) =>
          rep.error(s.pos, s"${s.kind} '${s.name}' is already defined at ${at(prev.pos, s.pos)}")
        case None =>
          table(key) = s
      }
    }

    def selectors(dt: DataTypeSym, ctor: ConstructorSym, args: List[ConstructorArg]): Unit =
      for (a <- args; sel <- a.selector) {
        table.get((Namespace.Function, sel)) match {
          case Some(f: FunctionSym) if f.functionKind == FunctionKind.Selector(dt, sel) =>
          // the same selector in another constructor of the same type: one function
          case _ =>
            val f = new FunctionSym(sel, m, None, FunctionKind.Selector(dt, sel), a.pos)
            define(f)
            dt.selectorFns = dt.selectorFns :+ f
        }
      }

    for (d <- m.decl.decls) d match {
      case dd: DataDecl =>
        val dt = new DataTypeSym(dd.name, m, dd)
        define(dt)
        decls += dt
        if (m.isPrelude && dd.name == "Exception") exceptionType = dt
        val ctors = dd.constructors.map { c =>
          val cs = new ConstructorSym(c.name, m, dt, c)
          define(cs)
          cs
        }
        dt.ctors = ctors
        dd.constructors.zip(ctors).foreach { case (c, cs) => selectors(dt, cs, c.args) }
      case ed: ExceptionDecl =>
        val cs = new ConstructorSym(ed.name, m, exceptionType, ed)
        define(cs)
        decls += cs
        exceptionType.ctors = exceptionType.ctors :+ cs
        selectors(exceptionType, cs, ed.args)
      case ts: TypeSynDecl =>
        val s = new TypeSynSym(ts.name, m, ts)
        define(s)
        decls += s
      case fd: FunctionDecl =>
        val f = new FunctionSym(fd.name, m, Some(fd),
          fd.body match { case _: BuiltinBody => FunctionKind.Builtin; case _ => FunctionKind.Defined }, fd.pos)
        define(f)
        decls += f
      case id: InterfaceDecl =>
        val i = new InterfaceSym(id.name, m, id)
        define(i)
        decls += i
      case cd: ClassDecl =>
        val c = new ClassSym(cd.name, m, cd)
        define(c)
        decls += c
      case td: TraitDecl =>
        val t = new TraitSym(td.name, m, td)
        define(t)
        decls += t
    }
    m.decls = decls.toList
  }

  // ---------------------------------------------------------------------------------
  // Imports and exports

  private val importsMemo = mutable.HashMap.empty[ModuleSym, List[Imported]]
  private val exportsMemo = mutable.HashMap.empty[ModuleSym, Map[Key, Set[DeclSym]]]
  private val inProgress = mutable.HashSet.empty[ModuleSym]
  private val reported = mutable.HashSet.empty[(Pos, String)]

  private def once(pos: Pos, msg: String): Unit = if (reported.add((pos, msg))) rep.error(pos, msg)

  /** Unknown or unsupported module: reports and returns None. */
  private def module(name: String, pos: Pos): Option[ModuleSym] = byName.get(name) match {
    case Some(m) => Some(m)
    case None =>
      Unsupported.Modules.get(name) match {
        case Some(what) => once(pos, s"$what is not supported yet")
        case None => once(pos, s"unknown module '$name'" + Suggest.hint(name, byName.keys))
      }
      None
  }

  def exports(m: ModuleSym): Map[Key, Set[DeclSym]] = exportsMemo.get(m) match {
    case Some(e) => e
    case None if inProgress(m) =>
      once(m.pos, s"module '${m.name}' re-exports names that depend on its own exports (circular import/export)")
      Map.empty
    case None =>
      inProgress += m
      val res = computeExports(m)
      inProgress -= m
      exportsMemo(m) = res
      m.exportedNames = res
      res
  }

  private def computeExports(m: ModuleSym): Map[Key, Set[DeclSym]] = {
    val acc = mutable.LinkedHashMap.empty[Key, Set[DeclSym]]
    def add(k: Key, s: DeclSym): Unit = acc(k) = acc.getOrElse(k, Set.empty) + s
    val own = defined(m)
    for (e <- m.decl.exports) (e.names, e.from) match {
      case (AllNames, None) =>
        own.foreach { case (k, s) => add(k, s) }
      case (AllNames, Some(from)) =>
        if (module(from, e.pos).isDefined) {
          val imported = imports(m).filter(i => i.from == from)
          imported.foreach(i => add((i.key._1, simple(i.key._2)), i.sym))
        }
      case (SomeNames(refs), None) =>
        for (r <- refs) {
          val n = r.name
          val found =
            if (!n.isQualified || n.module.contains(m.name)) own.filter(_._1._2 == n.name).toList
            else visible(m).filter(_._1._2 == n.toString).toList.flatMap { case (k, ss) => ss.map(s => (k, s)) }
          if (found.nonEmpty) found.foreach { case ((ns, _), s) => add((ns, n.name), s) }
          else {
            // like the reference toolchain, `export x;` also re-exports an imported `x`
            val imp = imports(m).filter(i => !i.qualifiedOnly && i.key._2 == n.toString)
            if (imp.nonEmpty) imp.foreach(i => add((i.key._1, n.name), i.sym))
            else rep.error(r.pos, s"cannot export '$n': it is not defined in module '${m.name}'" +
              Suggest.hint(n.name, own.keys.map(_._2)))
          }
        }
      case (SomeNames(refs), Some(from)) =>
        if (module(from, e.pos).isDefined) {
          val imported = imports(m).filter(_.from == from)
          for (r <- refs) {
            if (r.name.isQualified)
              rep.error(r.pos, s"write the name without its module in 'export ... from $from': '${r.name.name}'")
            val found = imported.filter(i => simple(i.key._2) == r.name.name)
            if (found.isEmpty) rep.error(r.pos, s"cannot export '${r.name.name}' from '$from': it is not imported from there")
            found.foreach(i => add((i.key._1, r.name.name), i.sym))
          }
        }
    }
    acc.toMap
  }

  private def simple(n: String): String = n.lastIndexOf('.') match {
    case -1 => n
    case i => n.substring(i + 1)
  }

  private def imports(m: ModuleSym): List[Imported] = importsMemo.getOrElseUpdate(m, computeImports(m))

  private def computeImports(m: ModuleSym): List[Imported] = {
    val acc = mutable.ListBuffer.empty[Imported]
    def addAll(from: ModuleSym, names: Map[Key, Set[DeclSym]], qualifiedOnly: Boolean, explicit: Boolean): Unit =
      for (((ns, n), ss) <- names; s <- ss) {
        if (!qualifiedOnly) acc += Imported((ns, n), s, from.name, qualifiedOnly = false, explicit)
        acc += Imported((ns, s"${from.name}.$n"), s, from.name, qualifiedOnly = true, explicit)
      }
    val explicitStd = m.decl.imports.exists(i => i.from.contains(Prelude.ModuleName) || (i.names match {
      case SomeNames(rs) => rs.exists(_.name.module.contains(Prelude.ModuleName))
      case AllNames => false
    }))
    if (!m.isPrelude && !explicitStd) addAll(stdlib, exports(stdlib), qualifiedOnly = false, explicit = false)
    for (i <- m.decl.imports) (i.names, i.from) match {
      case (AllNames, Some(from)) =>
        module(from, i.pos).foreach { src =>
          if (src ne m) addAll(src, exports(src), qualifiedOnly = false, explicit = !src.isPrelude)
        }
      case (AllNames, None) => // rejected by the parser
      case (SomeNames(refs), from) =>
        for (r <- refs) {
          val (modName, name, qualifiedOnly) = from match {
            case Some(f) => (Some(f), r.name.name, false)
            case None => (r.name.module, r.name.name, true)
          }
          if (from.isDefined && r.name.isQualified)
            rep.error(r.pos, s"write the name without its module in 'import ... from ${from.get}': '${r.name.name}'")
          modName.flatMap(mn => module(mn, if (from.isDefined) i.pos else r.pos)).foreach { src =>
            // a module may import its own names (to re-export them with `export x from M`)
            val table = if (src eq m) defined(m).toMap.map { case (k, s) => k -> Set(s) } else exports(src)
            val ex = table.filter(_._1._2 == name)
            if (ex.isEmpty) {
              val definedThere = defined(src).keys.exists(_._2 == name)
              rep.error(r.pos,
                if (definedThere) s"'$name' is not exported by module '${src.name}'"
                else s"module '${src.name}' has no '$name'" + Suggest.hint(name, exports(src).keys.map(_._2)))
            } else addAll(src, ex, qualifiedOnly, explicit = !src.isPrelude)
          }
        }
    }
    acc.toList
  }

  private val visibleMemo = mutable.HashMap.empty[ModuleSym, Map[Key, Set[DeclSym]]]

  /** Everything module `m` can name, by name space and name as written (simple or qualified). */
  def visible(m: ModuleSym): Map[Key, Set[DeclSym]] = visibleMemo.getOrElseUpdate(m, computeVisible(m))

  private def computeVisible(m: ModuleSym): Map[Key, Set[DeclSym]] = {
    val acc = mutable.HashMap.empty[Key, Set[DeclSym]]
    val imp = imports(m)
    // a name imported explicitly hides the same name imported implicitly from ABS.StdLib
    for ((key, is) <- imp.groupBy(_.key)) {
      val chosen = if (is.exists(_.explicit)) is.filter(_.explicit) else is
      acc(key) = chosen.map(_.sym).toSet
    }
    for (((ns, n), s) <- defined(m)) {
      // a clash with an explicitly imported name is an error; names of the standard library are simply hidden
      imp.find(i => i.key == ((ns, n)) && i.explicit && (i.sym ne s)).foreach { i =>
        rep.error(s.pos, s"${s.kind} '$n' clashes with the ${i.sym.kind} '$n' imported from module '${i.from}'")
      }
      acc((ns, n)) = Set(s)
      acc((ns, s"${m.name}.$n")) = Set(s)
    }
    acc.toMap
  }

  /** Resolves every module's imports and exports now, so that their errors are reported. */
  def resolveAll(): Unit = modules.foreach { m => exports(m); visible(m) }

  def definedNames(m: ModuleSym): Map[Key, DeclSym] = defined(m).toMap

  // ---------------------------------------------------------------------------------
  // Lookup

  def lookup(m: ModuleSym, ns: Namespace, n: QName): Lookup = {
    val vis = visible(m)
    vis.getOrElse((ns, n.toString), Set.empty).toList match {
      case List(s) => Found(s)
      case Nil =>
        n.module match {
          case None => Missing
          case Some(mn) =>
            byName.get(mn) match {
              case None => UnknownModule(mn)
              case Some(src) =>
                exports(src).getOrElse((ns, n.name), Set.empty).toList match {
                  case List(s) => Found(s)
                  case Nil =>
                    if (defined(src).contains((ns, n.name))) NotExported(src) else Missing
                  case many => Ambiguous(many)
                }
            }
        }
      case many => Ambiguous(many)
    }
  }

  /** Simple names visible in `m` in name space `ns`, for suggestions. */
  def visibleNames(m: ModuleSym, ns: Namespace): Iterable[String] =
    visible(m).keys.collect { case (`ns`, n) if !n.contains('.') => n }
}

private[typecheck] object Modules {

  /** A name brought in by an import clause. */
  private final case class Imported(key: (Namespace, String), sym: DeclSym, from: String, qualifiedOnly: Boolean,
      explicit: Boolean)

  sealed trait Lookup
  final case class Found(sym: DeclSym) extends Lookup
  case object Missing extends Lookup
  final case class Ambiguous(syms: List[DeclSym]) extends Lookup
  final case class NotExported(module: ModuleSym) extends Lookup
  final case class UnknownModule(name: String) extends Lookup

  /** Where `p` is, for a message about `here`: `line:col` in the same file, else `file:line:col`. */
  def at(p: Pos, here: Pos): String =
    if (p.file == here.file) s"${p.line}:${p.col}" else s"${p.file}:${p.line}:${p.col}"
}
