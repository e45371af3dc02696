package cogs.absc.typecheck

import scala.collection.immutable.ListMap
import scala.collection.mutable

import cogs.absc.ast._

/**
 * Phase 2: the types of every declaration, before any body is looked at: type synonyms,
 * data types (constructors, selectors), exceptions, interfaces (inherited methods,
 * cycles), functions, traits, classes (fields, methods, traits applied, conformance to
 * their interfaces).
 */
private[typecheck] trait SignaturePhase { self: Checker =>

  def checkSignatures(): Unit = {
    val all = mods.modules.flatMap(_.decls)
    for (m <- mods.modules; d <- m.decl.decls) {
      checkAnnotations(d.annotations, "declaration")
      checkForeign(d)
    }
    // type parameters first: synonyms and constructor arguments refer to data types
    all.foreach {
      case d: DataTypeSym => d.tparams = typeParams(d.decl.typeParams, d.module)
      case _ =>
    }
    all.foreach {
      case s: TypeSynSym => synonym(s)
      case _ =>
    }
    all.foreach {
      case d: DataTypeSym => dataSig(d)
      case c: ConstructorSym if c.isException => exceptionSig(c)
      case _ =>
    }
    all.foreach {
      case d: DataTypeSym => d.selectorFns.filter(_.module eq d.module).foreach(selectorSig)
      case _ =>
    }
    // selectors of exceptions live on ABS.StdLib.Exception but belong to the exception's module
    for (m <- mods.modules) {
      mods.definedNames(m).values.foreach {
        case f: FunctionSym if f.functionKind == FunctionKind.Selector(b.exception, f.name) => selectorSig(f)
        case _ =>
      }
    }
    all.foreach {
      case i: InterfaceSym => interfaceSig(i)
      case _ =>
    }
    all.foreach {
      case f: FunctionSym if f.decl.isDefined => functionSig(f)
      case _ =>
    }
    all.foreach {
      case t: TraitSym => traitSig(t)
      case _ =>
    }
    all.foreach {
      case c: ClassSym => classSig(c)
      case _ =>
    }
  }

  private def tpsMap(ps: List[TypeParamSym]): Map[String, TypeParamSym] = ps.map(p => p.name -> p).toMap

  // ---------------------------------------------------------------------------------
  // Data types and exceptions

  private def dataSig(d: DataTypeSym): Unit = {
    val tps = tpsMap(d.tparams)
    for ((cd, cs) <- d.decl.constructors.zip(d.ctors)) {
      cs.args = cd.args.map(a => resolveType(a.tpe, d.module, tps))
      cs.sels = cd.args.map(_.selector)
      cs.keys = cd.args.map(httpKey)
    }
  }

  // `data D = C([HTTPName: "key"] T x, ..)`: the key of the argument in the Model API's JSON (the
  // Erlang backend's rule, which reads string literals only).
  private def httpKey(a: ConstructorArg): Option[String] =
    a.tpe.annotations.find(x => x.tag.exists(_.name == Annotations.HttpName)).flatMap { x =>
      x.value match {
        case StringLit(key) => Some(key)
        case other =>
          error(other.pos, "the key of '[HTTPName: ..]' on a constructor argument must be a string literal")
          None
      }
    }

  private def exceptionSig(c: ConstructorSym): Unit = {
    val ed = c.decl.asInstanceOf[ExceptionDecl]
    c.args = ed.args.map(a => resolveType(a.tpe, c.module, Map.empty))
    c.sels = ed.args.map(_.selector)
  }

  private def selectorSig(f: FunctionSym): Unit = f.functionKind match {
    case FunctionKind.Selector(dt, name) =>
      val uses = for {
        c <- dt.ctors if c.module eq f.module
        ((t, sel), i) <- c.args.zip(c.sels).zipWithIndex if sel.contains(name)
      } yield (c, t, i)
      uses.headOption.foreach { case (_, t0, _) =>
        for ((c, t, _) <- uses.tail if !(inf.same(t, t0)))
          error(c.pos, s"selector '$name' has type ${show(t0)} in one constructor but ${show(t)} in '${c.name}'")
        f.tparams = dt.tparams
        val argName = dt.name.take(1).toLowerCase + dt.name.drop(1)
        f.ps = List(newLocal(argName, LocalKind.FunctionParam, uses.head._1.decl, f.pos,
          if (dt eq b.exception) b.ExceptionT else dt.genericType))
        f.result = t0
      }
    case _ =>
  }

  // ---------------------------------------------------------------------------------
  // Interfaces

  private val ifaceState = new java.util.IdentityHashMap[InterfaceSym, Integer]

  private def interfaceSig(i: InterfaceSym): Unit = Option(ifaceState.get(i)).map(_.intValue).getOrElse(0) match {
    case 0 =>
      ifaceState.put(i, 1)
      val supers = i.decl.extendsList.flatMap { r =>
        interfaceRef(r, i.module, "an interface can only extend interfaces").flatMap { j =>
          if (Option(ifaceState.get(j)).exists(_.intValue == 1)) {
            error(r.pos, s"interface '${i.name}' extends itself" + (if (j eq i) "" else s" (through '${j.name}')"))
            None
          } else {
            interfaceSig(j)
            Some(j)
          }
        }
      }
      i.supers = supers
      i.ancestors = supers.iterator.flatMap(_.allSupers).toSet ++ (if (i eq b.objectIface) Set.empty else Set(b.objectIface))

      val inherited = mutable.LinkedHashMap.empty[String, MethodSym]
      for (j <- supers; (n, m) <- j.methods) inherited.get(n) match {
        case Some(other) if (other ne m) && !sameSignature(other, m) =>
          error(i.pos, s"interface '${i.name}' inherits two different methods '$n' " +
            s"(from '${other.owner.name}' and '${m.owner.name}')")
        case Some(_) =>
        case None => inherited(n) = m
      }
      val own = mutable.LinkedHashMap.empty[String, MethodSym]
      for (sig <- i.decl.methods) {
        val m = methodSym(i, sig, None, i.module)
        if (own.contains(sig.name))
          error(sig.pos, s"method '${sig.name}' is already declared at ${at(own(sig.name).pos, sig.pos)}")
        else inherited.get(sig.name) match {
          case Some(prev) =>
            error(sig.pos, s"method '${sig.name}' is already declared in interface '${prev.owner.name}', " +
              s"which '${i.name}' extends")
          case None => own(sig.name) = m
        }
      }
      i.own = own.values.toList
      i.all = ListMap.from(inherited ++ own)
      ifaceState.put(i, 2)
    case _ =>
  }

  /** Resolves a name in `extends`/`implements` to an interface, recording it. */
  def interfaceRef(r: NameRef, m: ModuleSym, notIface: String): Option[InterfaceSym] =
    mods.lookup(m, Namespace.Type, r.name) match {
      case Modules.Found(j: InterfaceSym) =>
        refer(r, j)
        Some(j)
      case Modules.Found(other) =>
        error(r.pos, s"'${r.name}' is a ${other.kind}, not an interface: $notIface")
        None
      case Modules.Missing if find(m, Namespace.Class, r.name).isDefined =>
        error(r.pos, s"'${r.name}' is a class, not an interface: $notIface")
        None
      case _ =>
        lookup(m, Namespace.Type, r.name, r.pos, "interface")
        None
    }

  def sameSignature(a: MethodSym, c: MethodSym): Boolean =
    a.params.length == c.params.length &&
      a.paramTypes.zip(c.paramTypes).forall { case (x, y) => inf.same(x, y) } && inf.same(a.resultType, c.resultType)

  /** A method symbol with resolved parameter and result types. */
  private def methodSym(owner: DeclSym, sig: MethodSig, decl: Option[MethodDecl], m: ModuleSym): MethodSym = {
    val ms = new MethodSym(sig.name, owner, sig, decl)
    checkAnnotations(sig.annotations, "method")
    ms.ps = params(sig.params, LocalKind.MethodParam, m, Map.empty)
    ms.result = resolveType(sig.resultType, m, Map.empty)
    if (sig.name == "run" && (sig.params.nonEmpty || !(b.isUnit(ms.result) || ms.result == Type.Error)))
      error(sig.pos, "the method 'run' of an active object must be declared 'Unit run()'")
    ms
  }

  /** Parameters as local symbols, reporting duplicates. */
  def params(ps: List[Param], kind: LocalKind, m: ModuleSym, tps: Map[String, TypeParamSym]): List[LocalSym] = {
    val seen = mutable.HashMap.empty[String, Param]
    ps.map { p =>
      checkAnnotations(p.annotations, "parameter")
      seen.get(p.name) match {
        case Some(prev) => error(p.pos, s"parameter '${p.name}' is already declared at ${at(prev.pos, p.pos)}")
        case None => seen(p.name) = p
      }
      val l = newLocal(p.name, kind, p, p.pos, resolveType(p.tpe, m, tps))
      refer(p, l)
      l
    }
  }

  // ---------------------------------------------------------------------------------
  // Functions

  private def functionSig(f: FunctionSym): Unit = f.decl.foreach { d =>
    f.tparams = typeParams(d.typeParams, f.module)
    val tps = tpsMap(f.tparams)
    f.ps = params(d.params, LocalKind.FunctionParam, f.module, tps)
    f.result = resolveType(d.resultType, f.module, tps)
    val seen = mutable.HashMap.empty[String, Pos]
    f.fps = d.funParams.map { fp =>
      seen.get(fp.name) match {
        case Some(prev) => error(fp.pos, s"function parameter '${fp.name}' is already declared at ${at(prev, fp.pos)}")
        case None => seen(fp.name) = fp.pos
      }
      if (d.params.exists(_.name == fp.name))
        error(fp.pos, s"'${fp.name}' is both a function parameter and a parameter of '${f.name}'")
      new FunParamSym(fp.name, f, fp)
    }
  }

  // ---------------------------------------------------------------------------------
  // Traits

  private val traitState = new java.util.IdentityHashMap[TraitSym, Integer]

  private def traitSig(t: TraitSym): Unit = Option(traitState.get(t)).map(_.intValue).getOrElse(0) match {
    case 0 =>
      traitState.put(t, 1)
      t.ms = traitMethods(t.decl.expr, t.module)
      traitState.put(t, 2)
    case 1 =>
      error(t.pos, s"trait '${t.name}' is defined in terms of itself")
      traitState.put(t, 2)
    case _ =>
  }

  private var originals = 0

  /** The methods of a trait expression, its operations applied left to right. */
  def traitMethods(e: TraitExpr, m: ModuleSym): List[MethodDecl] = {
    def set(s: MethodSet): List[MethodDecl] = s match {
      case MethodList(ms) => ms
      case r @ TraitRef(name) =>
        lookup(m, Namespace.Trait, QName.parse(name), r.pos, "trait") match {
          case Some(t: TraitSym) =>
            refer(r, t)
            traitSig(t)
            t.ms
          case _ => Nil
        }
    }
    var ms = set(e.base)
    for (op <- e.ops) op match {
      case TraitAdds(s) =>
        for (md <- set(s)) {
          if (ms.exists(_.name == md.name))
            error(op.pos, s"the trait already has a method '${md.name}'; use 'modifies' to replace it")
          else ms = ms :+ md
        }
      case TraitModifies(s) =>
        for (md <- set(s)) {
          val i = ms.indexWhere(_.name == md.name)
          ms =
            if (i < 0) ms :+ md
            else if (TraitOriginal.calls(md)) {
              // `original()`: keep the replaced method under a hidden name and call it from the new one
              originals += 1
              val hidden = s"${md.name}$$original$$$originals"
              ms.updated(i, TraitOriginal.rewrite(md, hidden)) :+ TraitOriginal.renamed(ms(i), hidden)
            } else ms.updated(i, md)
        }
      case TraitRemoves(sigs) =>
        for (sig <- sigs) {
          if (!ms.exists(_.name == sig.name)) error(sig.pos, s"the trait has no method '${sig.name}' to remove")
          ms = ms.filterNot(_.name == sig.name)
        }
    }
    ms
  }

  // ---------------------------------------------------------------------------------
  // Classes

  private def classSig(c: ClassSym): Unit = {
    val d = c.decl
    val ifaces = d.implementsList.flatMap(r => interfaceRef(r, c.module, "a class can only implement interfaces"))
    c.ifaces = if (d.implementsList.isEmpty) List(b.objectIface) else ifaces.distinct

    val seen = mutable.HashMap.empty[String, Pos]
    def fieldName(n: String, p: Pos): Unit = seen.get(n) match {
      case Some(prev) => error(p, s"field '$n' is already defined at ${at(prev, p)}")
      case None => seen(n) = p
    }
    c.ps = d.params.map { p =>
      checkAnnotations(p.annotations, "parameter")
      fieldName(p.name, p.pos)
      val f = new FieldSym(p.name, c, p, isClassParam = true)
      f.t = resolveType(p.tpe, c.module, Map.empty)
      refer(p, f)
      f
    }
    c.fs = d.fields.map { fd =>
      checkAnnotations(fd.annotations, "field")
      fieldName(fd.name, fd.pos)
      val f = new FieldSym(fd.name, c, fd, isClassParam = false)
      f.t = resolveType(fd.tpe, c.module, Map.empty)
      refer(fd, f)
      f
    }

    val methods = mutable.LinkedHashMap.empty[String, MethodSym]
    for (md <- d.methods) {
      val ms = methodSym(c, md.sig, Some(md), c.module)
      methods.get(md.name) match {
        case Some(prev) => error(md.pos, s"method '${md.name}' is already defined at ${at(prev.pos, md.pos)}")
        case None => methods(md.name) = ms
      }
    }
    for (u <- d.uses; md <- traitMethods(u, c.module)) {
      methods.get(md.name) match {
        case Some(prev) =>
          error(u.pos, s"method '${md.name}' of the trait is already defined in class '${c.name}' at ${at(prev.pos, u.pos)}")
        case None =>
          val copy = AstCopy.method(md)
          methods(md.name) = methodSym(c, copy.sig, Some(copy), c.module)
      }
    }
    c.ms = ListMap.from(methods)
    conformance(c)
  }

  /** Every method of every implemented interface is defined, with the same signature. */
  private def conformance(c: ClassSym): Unit = {
    val required = mutable.LinkedHashMap.empty[String, (MethodSym, Pos)]
    val refs = c.decl.implementsList
    for (i <- c.ifaces; (n, sig) <- i.methods) {
      val where = refs.find(r => tables.refs.get(r) eq i).map(_.pos).getOrElse(c.pos)
      required.get(n) match {
        case Some((other, _)) if (other ne sig) && !sameSignature(other, sig) =>
          error(where, s"class '${c.name}' implements two different methods '$n' " +
            s"(of '${other.owner.name}' and '${sig.owner.name}')")
        case Some(_) =>
        case None => required(n) = (sig, where)
      }
    }
    for ((n, (sig, where)) <- required) {
      val iname = sig.owner.name
      c.method(n) match {
        case None =>
          error(where, s"class '${c.name}' does not implement method '$n' of interface '$iname'")
        case Some(impl) =>
          val prefix = s"method '$n' of class '${c.name}' does not match interface '$iname'"
          if (impl.params.length != sig.params.length)
            error(impl.pos, s"$prefix: expected ${plural(sig.params.length, "parameter")}, found ${impl.params.length}")
          else
            for ((ip, sp) <- impl.params.zip(sig.params) if !inf.same(ip.tpe, sp.tpe) && !Type.hasError(ip.tpe))
              error(ip.pos, s"$prefix: expected parameter '${ip.name}' of type ${show(sp.tpe)}, found ${show(ip.tpe)}")
          if (!inf.same(impl.resultType, sig.resultType) && !Type.hasError(impl.resultType))
            error(impl.pos, s"$prefix: expected ${show(sig.resultType)}, found ${show(impl.resultType)}")
          if (sig.isAtomic && !impl.isAtomic)
            error(impl.pos, s"method '$n' of class '${c.name}' must be declared [Atomic], as in interface '$iname'")
          if (sig.isReadonly && !impl.isReadonly)
            error(impl.pos, s"method '$n' of class '${c.name}' must be declared [Readonly], as in interface '$iname'")
      }
    }
  }

  /**
   * `[Foreign]`: on a class without class parameters, as the reference's foreign language
   * interface requires (a foreign implementation is created without arguments). Its ABS methods
   * are the implementation Cogs runs.
   */
  private def checkForeign(d: Decl): Unit =
    d.annotations.find(a => a.tag.isEmpty && Annotations.nameOf(a).contains(Annotations.Foreign)).foreach { a =>
      d match {
        case c: ClassDecl if c.params.nonEmpty =>
          error(c.params.head.pos, s"the foreign class '${c.name}' has class parameters; a [Foreign] class has none " +
            "(a foreign implementation is created without arguments): make them fields set by methods")
        case _: ClassDecl =>
        case _ => warning(a.pos, "'[Foreign]' applies to classes; it is ignored here")
      }
    }
}
