package cogs.absc.spl

import scala.collection.mutable

import cogs.absc.ast._
import cogs.absc.diag.Diagnostic
import cogs.absc.typecheck.{AstRewrite, TraitOriginal}

/**
 * A program's modules while deltas are applied to it, one delta at a time. Modules are neither
 * added nor removed (deltas cannot), so the result keeps every file's modules in their order.
 */
private[spl] final class Modules(units: List[CompilationUnit]) {
  private val mods: mutable.ArrayBuffer[ModuleDecl] = mutable.ArrayBuffer.from(units.flatMap(_.modules))

  def index(name: String): Option[Int] = Some(mods.indexWhere(_.name == name)).filter(_ >= 0)
  def apply(i: Int): ModuleDecl = mods(i)
  def update(i: Int, m: ModuleDecl): Unit = mods(i) = m
  def indices: Range = mods.indices

  /** The trait declarations of the program, by name (for a delta's `adds T`, and methods a class has through `uses`). */
  def traitNamed(name: String): Option[TraitDecl] =
    mods.iterator.flatMap(_.decls).collectFirst { case t: TraitDecl if t.name == QName.parse(name).name => t }

  def result: List[CompilationUnit] = {
    val it = mods.iterator
    units.map(u => CompilationUnit(u.file, u.modules.map(_ => it.next())))
  }
}

/**
 * Applies one delta to the program, in place; every modifier that does not apply (a missing
 * class, method, field, interface; a name that is already declared) is an error located at the
 * modifier, naming the delta and the product.
 */
private[spl] final class DeltaApplication(program: Modules, delta: DeltaDecl, product: String, args: Map[String, AttrValue]) {
  private val errs = mutable.ListBuffer.empty[Diagnostic]
  def errors: List[Diagnostic] = errs.toList

  private def error(p: Pos, message: String): Unit =
    errs += Diagnostic.error(p, s"delta ${delta.name} does not apply to product $product: $message")

  private val usesIndex: Option[Int] = delta.uses.flatMap { u =>
    val i = program.index(u)
    if (i.isEmpty) error(delta.pos, s"its 'uses $u' names a module the program does not have")
    i
  }

  // ---------------------------------------------------------------- parameters

  private val rewrite = new AstRewrite(v => args.get(v.name) match {
    case Some(IntValue(i)) => IntLit(i)(v.pos)
    case Some(BoolValue(b)) => ConstructorApp(QName(if (b) "True" else "False"), Nil)(v.pos)
    case Some(StringValue(s)) => StringLit(s)(v.pos)
    case None => VarUse(v.name)(v.pos)
  })

  private def subst(m: MethodDecl): MethodDecl = if (args.isEmpty) m else rewrite.method(m)
  private def subst(f: FieldDecl): FieldDecl = if (args.isEmpty) f else f.copy(init = f.init.map(rewrite.pure))(f.pos)
  private def subst(d: Decl): Decl = if (args.isEmpty) d else d match {
    case c: ClassDecl => c.copy(fields = c.fields.map(subst), init = c.init.map(rewrite.block), methods = c.methods.map(subst),
      recover = c.recover.map(rewrite.branch))(c.pos)
    case f: FunctionDecl => f.copy(body = f.body match {
      case ExpBody(e) => ExpBody(rewrite.pure(e))(f.body.pos)
      case b => b
    })(f.pos)
    case other => other
  }

  // ---------------------------------------------------------------- finding what a modifier names

  private sealed trait Kind { def label: String; def matches(d: Decl): Boolean }
  private case object ClassKind extends Kind { val label = "class"; def matches(d: Decl) = d.isInstanceOf[ClassDecl] }
  private case object InterfaceKind extends Kind { val label = "interface"; def matches(d: Decl) = d.isInstanceOf[InterfaceDecl] }
  private case object DataKind extends Kind { val label = "data type"; def matches(d: Decl) = d.isInstanceOf[DataDecl] }
  private case object SynKind extends Kind { val label = "type synonym"; def matches(d: Decl) = d.isInstanceOf[TypeSynDecl] }

  /** The module and declaration index of `q`: qualified, in the `uses` module, or the only module declaring it. */
  private def locate(q: QName, kind: Kind, at: Pos): Option[(Int, Int)] = {
    def in(mi: Int): Option[Int] = Some(program(mi).decls.indexWhere(d => kind.matches(d) && d.name == q.name)).filter(_ >= 0)
    q.module.orElse(delta.uses) match {
      case Some(m) => program.index(m) match {
        case None => if (q.module.isDefined) error(at, s"there is no module '$m'"); None
        case Some(mi) => in(mi) match {
          case Some(di) => Some((mi, di))
          case None =>
            error(at, s"module $m has no ${kind.label} '${q.name}'" +
              (if (q.module.isEmpty) s" (the delta's 'uses $m' says where unqualified names are)" else ""))
            None
        }
      }
      case None =>
        val found = program.indices.flatMap(mi => in(mi).map(di => (mi, di))).toList
        found match {
          case List(one) => Some(one)
          case Nil => error(at, s"no module has a ${kind.label} '${q.name}'"); None
          case many =>
            error(at, s"${kind.label} '${q.name}' is declared in modules ${many.map(x => program(x._1).name).mkString(", ")}: " +
              s"qualify it (M.${q.name}) or give the delta a 'uses M;' clause")
            None
        }
    }
  }

  private def namespace(d: Decl): String = d match {
    case _: ClassDecl => "class"
    case _: FunctionDecl => "function"
    case _: TraitDecl => "trait"
    case _ => "type"
  }

  private def kindOf(d: Decl): String = d match {
    case _: ClassDecl => "class"
    case _: InterfaceDecl => "interface"
    case _: DataDecl => "data type"
    case _: TypeSynDecl => "type synonym"
    case _: FunctionDecl => "function"
    case _: ExceptionDecl => "exception"
    case _: TraitDecl => "trait"
  }

  private def usesModule(at: Pos, what: String): Option[Int] =
    if (delta.uses.isEmpty) { error(at, s"it adds $what but has no 'uses M;' clause naming the module that gets it"); None }
    else usesIndex

  // ---------------------------------------------------------------- applying

  def apply(): Unit = if (errs.isEmpty) delta.modifiers.foreach(modifier)

  private def updateDecl(mi: Int, di: Int, d: Decl): Unit = {
    val m = program(mi)
    program(mi) = m.copy(decls = m.decls.updated(di, d))(m.pos)
  }

  private def modifier(mod: DeltaModifier): Unit = mod match {
    case a @ AddsDecl(d) =>
      for (mi <- usesModule(a.pos, s"${kindOf(d)} '${d.name}'")) {
        val m = program(mi)
        m.decls.find(x => x.name == d.name && namespace(x) == namespace(d)) match {
          case Some(old) => error(a.pos, s"module ${m.name} already has a ${kindOf(old)} '${d.name}' (at ${old.pos})")
          case None => program(mi) = m.copy(decls = m.decls :+ subst(d))(m.pos)
        }
      }
    case r @ RemovesClass(q) =>
      for ((mi, di) <- locate(q, ClassKind, r.pos)) { val m = program(mi); program(mi) = m.copy(decls = m.decls.patch(di, Nil, 1))(m.pos) }
    case r @ RemovesInterface(q) =>
      for ((mi, di) <- locate(q, InterfaceKind, r.pos)) { val m = program(mi); program(mi) = m.copy(decls = m.decls.patch(di, Nil, 1))(m.pos) }
    case md @ ModifiesData(d) =>
      for ((mi, di) <- locate(QName(d.name), DataKind, md.pos)) updateDecl(mi, di, d)
    case md @ ModifiesTypeSyn(d) =>
      for ((mi, di) <- locate(QName(d.name), SynKind, md.pos)) updateDecl(mi, di, d)
    case mc: ModifiesClass =>
      for ((mi, di) <- locate(mc.name, ClassKind, mc.pos)) updateDecl(mi, di, modifyClass(program(mi).decls(di).asInstanceOf[ClassDecl], mc))
    case mi0: ModifiesInterface =>
      for ((mi, di) <- locate(mi0.name, InterfaceKind, mi0.pos)) {
        var i = program(mi).decls(di).asInstanceOf[InterfaceDecl]
        mi0.modifiers.foreach {
          case a @ AddsSig(sig) =>
            if (i.methods.exists(_.name == sig.name)) error(a.pos, s"interface '${i.name}' already has a method '${sig.name}'")
            else i = i.copy(methods = i.methods :+ sig)(i.pos)
          case r @ RemovesSig(sig) =>
            if (!i.methods.exists(_.name == sig.name)) error(r.pos, s"interface '${i.name}' has no method '${sig.name}' to remove")
            else i = i.copy(methods = i.methods.filterNot(_.name == sig.name))(i.pos)
        }
        updateDecl(mi, di, i)
      }
    case a @ AddsImport(imp) =>
      for (mi <- usesModule(a.pos, "an import")) { val m = program(mi); program(mi) = m.copy(imports = m.imports :+ imp)(m.pos) }
    case a @ AddsExport(exp) =>
      for (mi <- usesModule(a.pos, "an export")) { val m = program(mi); program(mi) = m.copy(exports = m.exports :+ exp)(m.pos) }
  }

  // ---------------------------------------------------------------- classes

  /** The methods of a trait expression, by the program's trait declarations (names only matter here). */
  private def traitMethods(e: TraitExpr, seen: Set[String] = Set.empty): List[MethodDecl] = {
    def set(s: MethodSet): List[MethodDecl] = s match {
      case MethodList(ms) => ms
      case TraitRef(n) if !seen(n) => program.traitNamed(n).toList.flatMap(t => traitMethods(t.expr, seen + n))
      case _ => Nil
    }
    e.ops.foldLeft(set(e.base)) {
      case (ms, TraitAdds(s)) => ms ++ set(s)
      case (ms, TraitModifies(s)) => set(s).foldLeft(ms)((acc, m) => if (acc.exists(_.name == m.name)) acc.map(x => if (x.name == m.name) m else x) else acc :+ m)
      case (ms, TraitRemoves(sigs)) => ms.filterNot(m => sigs.exists(_.name == m.name))
    }
  }

  private def methodsOf(set: MethodSet, at: Pos): List[MethodDecl] = set match {
    case MethodList(ms) => ms
    case TraitRef(n) => program.traitNamed(n) match {
      case Some(t) => traitMethods(t.expr)
      case None => error(at, s"there is no trait '$n'"); Nil
    }
  }

  private def modifyClass(c0: ClassDecl, mc: ModifiesClass): ClassDecl = {
    var c = c0
    def usesIndexOf(m: String): Int = c.uses.indexWhere(u => traitMethods(u).exists(_.name == m))
    def hasMethod(m: String): Boolean = c.methods.exists(_.name == m) || usesIndexOf(m) >= 0
    def addUseOp(i: Int, op: TraitOp): Unit = c = c.copy(uses = c.uses.updated(i, c.uses(i).copy(ops = c.uses(i).ops :+ op)(c.uses(i).pos)))(c.pos)

    for (i <- mc.addsIfaces) {
      if (c.implementsList.exists(_.name.name == i.name.name)) error(i.pos, s"class '${c.name}' already implements '${i.name}'")
      else c = c.copy(implementsList = c.implementsList :+ i)(c.pos)
    }
    for (i <- mc.removesIfaces) {
      if (!c.implementsList.exists(_.name.name == i.name.name)) error(i.pos, s"class '${c.name}' does not implement '${i.name}', so it cannot be removed")
      else c = c.copy(implementsList = c.implementsList.filterNot(_.name.name == i.name.name))(c.pos)
    }
    mc.modifiers.foreach {
      case a @ AddsField(f) =>
        if (c.fields.exists(_.name == f.name) || c.params.exists(_.name == f.name))
          error(a.pos, s"class '${c.name}' already has a field '${f.name}'")
        else c = c.copy(fields = c.fields :+ subst(f))(c.pos)
      case r @ RemovesField(f) =>
        if (c.params.exists(_.name == f.name)) error(r.pos, s"'${f.name}' is a parameter of class '${c.name}'; deltas cannot change class parameters")
        else if (!c.fields.exists(_.name == f.name)) error(r.pos, s"class '${c.name}' has no field '${f.name}' to remove")
        else c = c.copy(fields = c.fields.filterNot(_.name == f.name))(c.pos)
      case a @ AddsMethods(set) =>
        for (m <- methodsOf(set, a.pos)) {
          if (hasMethod(m.name)) error(m.pos, s"class '${c.name}' already has a method '${m.name}'; use 'modifies' to replace it")
          else c = c.copy(methods = c.methods :+ subst(m))(c.pos)
        }
      case md @ ModifiesMethods(set) =>
        for (m0 <- methodsOf(set, md.pos)) {
          val m = subst(m0)
          qualifiedOriginal(m)
          val i = c.methods.indexWhere(_.name == m.name)
          if (i >= 0) {
            c = c.copy(methods =
              if (TraitOriginal.calls(m)) {
                // `original()`: the replaced method stays under a hidden name (`$` is not an ABS name character)
                val hidden = Iterator.from(1).map(k => s"${m.name}$$original$$${delta.name}$$$k").find(h => !c.methods.exists(_.name == h)).get
                c.methods.updated(i, TraitOriginal.rewrite(m, hidden)) :+ TraitOriginal.renamed(c.methods(i), hidden)
              } else c.methods.updated(i, m))(c.pos)
          } else usesIndexOf(m.name) match {
            // a method the class has through a trait: the trait use gets the modification (and handles `original()`)
            case u if u >= 0 => addUseOp(u, TraitModifies(MethodList(List(m))(m.pos))(md.pos))
            case _ => error(m.pos, s"class '${c.name}' has no method '${m.name}' to modify")
          }
        }
      case r @ RemovesMethods(sigs) =>
        for (s <- sigs) {
          if (c.methods.exists(_.name == s.name)) c = c.copy(methods = c.methods.filterNot(_.name == s.name))(c.pos)
          else usesIndexOf(s.name) match {
            case u if u >= 0 => addUseOp(u, TraitRemoves(List(s))(r.pos))
            case _ => error(s.pos, s"class '${c.name}' has no method '${s.name}' to remove")
          }
        }
    }
    c
  }

  /** `core.original()` and `D.original()` (a chosen earlier version) are not supported: said at the call. */
  private def qualifiedOriginal(m: MethodDecl): Unit = Walk.foreach(m.body) {
    case s @ SyncCall(VarUse("core"), "original", _) =>
      error(s.pos, "'core.original()' is not supported: 'original()' calls the version this delta replaces")
    case f @ FnApp(QName(Some(d), "original"), _) =>
      error(f.pos, s"'$d.original()' is not supported: 'original()' calls the version this delta replaces")
    case _ =>
  }
}

/** A generic walk over AST values (case classes, lists, options). */
private[spl] object Walk {
  def foreach(x: Any)(f: PartialFunction[Any, Unit]): Unit = {
    f.applyOrElse(x, (_: Any) => ())
    x match {
      case l: Iterable[_] => l.foreach(foreach(_)(f))
      case p: scala.Product => p.productIterator.foreach(foreach(_)(f))
      case _ =>
    }
  }
}
