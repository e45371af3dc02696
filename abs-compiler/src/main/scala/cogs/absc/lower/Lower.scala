package cogs.absc.lower

import cogs.absc.ast._
import cogs.absc.typecheck._

/**
 * The lowering phase: a checked program ([[TypedProgram]]) to the lowered program ([[LProgram]]),
 * which the printer (`cogs.absc.emit`) renders as Scala.
 *
 * The shape (see abs-compiler/README.md, "Generated code"): one object per ABS module, holding
 * its data types (a sealed trait and a case class or object per constructor), functions,
 * interfaces (a trait of `Proc`-returning methods and a companion of message constructors),
 * classes (`ActiveObject`s) and the main block. Names come from [[Names]]; statements from
 * [[LowerStmt]]; expressions from [[LowerExp]].
 */
object Lower {
  /**
   * Lower `program`. `mainModule`: the module whose main block the program runs, as the
   * pipeline's `entry` phase chose it (None: no main block runs).
   */
  def apply(program: TypedProgram, pkg: String, mainModule: Option[String]): LProgram =
    new Lower(program, pkg).lower(mainModule)
}

private[lower] final class Lower(program: TypedProgram, pkg: String) {
  private val names = new Names(program, pkg)
  private val x = new LowerExp(program, names)
  private val stmts = new LowerStmt(x)
  private val b = program.builtins
  private val death = new ObjectDeath(program)

  private def newLocals = new Locals(names.term)

  /** The modules that have code: all but a declared-only library module (ABS.Meta). */
  private val codeModules = program.userModules.filter(m => Library.isLowered(m.name))

  def lower(mainModule: Option[String]): LProgram = {
    val modules = codeModules.map(m => m -> lowerModule(m))
    val chosen = mainModule.map(n => codeModules.find(m => m.name == n && m.main.isDefined)
      .getOrElse(throw new IllegalArgumentException(s"absc: module $n has no main block")))
    val main = chosen.flatMap(m => modules.collectFirst { case (`m`, lm) => lm })
    LProgram(pkg, modules.map(_._2), main, chosen.exists(hasTestResult), None, origins)
  }

  /** The ABS construct behind each JVM method of the generated code (see [[LProgram]]). */
  private def origins: Map[String, (Pos, String)] = {
    val path = pkg.replace('.', '/')
    codeModules.flatMap { m =>
      val obj = s"$path/${names.moduleObjects(m)}$$"
      val fns = m.functions.filter(_.decl.isDefined).map(f => s"$obj.${names.function(f)}" -> (f.pos, s"function '${f.name}'"))
      val main = m.main.map(b => s"$obj.main" -> (b.pos, s"the main block of module ${m.name}")).toList
      val classes = m.classes.flatMap { c =>
        val cls = obj + names.cls(c)
        (s"$cls.<init>" -> (c.pos, s"the fields and init block of class '${c.name}'")) ::
          c.methods.valuesIterator.filter(_.body.isDefined).flatMap { ms =>
            val origin = (ms.pos, s"method '${c.name}.${ms.name}'")
            (s"$cls.${names.method(ms)}" -> origin) ::
              (if (program.hasFrameForm(ms)) List(s"$cls.${names.frameMethod(ms)}" -> origin) else Nil) :::
              (if (program.hasDirectForm(ms)) List(s"$cls.${names.directMethod(ms)}" -> origin) else Nil)
          }.toList
      }
      fns ++ main ++ classes
    }.toMap
  }

  private def hasTestResult(m: ModuleSym): Boolean = testResult(m).isDefined

  private def testResult(m: ModuleSym): Option[VarDeclStmt] =
    m.main.flatMap(_.stmts.collectFirst { case v: VarDeclStmt if v.name == "testresult" => v })

  private def lowerModule(m: ModuleSym): LModule = {
    val decls = m.declarations.flatMap {
      case d: DataTypeSym => List(data(d))
      case f: FunctionSym if !f.isSelector => function(f).toList ++ foreignBinding(f).toList
      case i: InterfaceSym => List(interface(i))
      case c: ClassSym => List(cls(c))
      case c: ConstructorSym if c.isException => List(exception(c))
      case _ => Nil
    } ++ m.main.map(block => mainBlock(m, block)).toList
    LModule(m.name, m.file, names.moduleObjects(m), decls)
  }

  private def ctx(m: ModuleSym, c: Option[ClassSym] = None): Ctx = new Ctx(Some(m), c, newLocals)

  // ------------------------------------------------------------------ data types and functions

  private def data(d: DataTypeSym): LData = {
    val c0 = ctx(d.module)
    val tps = d.typeParams.map(p => Naming.typeParam(p.name))
    val single = d.constructors match {
      case List(c) if c.name == d.name => true
      case _ => false
    }
    val self = T.Ref(names.dataType(d), tps.map(T.Ref(_)))
    val (inCompanion, plain) = d.constructors.partition(c => !single && c.name == d.name)
    // Inside the companion object `T`, `T` is the constructor: refer to everything by its full name there.
    val companionCtors = inCompanion.map(c => ctor(d, c, T.Ref(names.full(d.module, names.dataType(d)), tps.map(T.Ref(_))), full = true))
    val ctors = plain.map(c => ctor(d, c, if (single) T.Ref("AbsData") else self, full = false))
    LData(d.name, names.dataType(d), tps, !single, companionCtors, ctors, selectors(d.selectors, d.constructors, d.typeParams.nonEmpty, c0))
  }

  private def ctor(d: DataTypeSym, c: ConstructorSym, parent: T, full: Boolean): LCtor = {
    val c0 = ctx(d.module)
    val tps = d.typeParams.map(p => Naming.typeParam(p.name))
    val fields = c.argTypes.zipWithIndex.map { case (t, i) => (ctorField(c, i), x.tpe(t, c0, full)) }
    if (c.arity == 0 && d.typeParams.nonEmpty)
      LCtor(c.name, names.constructor(c), Nil, Nil, parent match {
        case T.Ref(n, args) => T.Ref(n, args.map(_ => T.Ref("scala.Nothing")))
        case other => other
      }, caseObject = true)
    else {
      val named = c.argTypes.indices.map(i => c.httpKeys.lift(i).flatten.orElse(c.selectorNames.lift(i).flatten)).toList
      val http = if (program.usesModelApi && named.exists(_.isDefined)) Some(named) else None
      LCtor(c.name, names.constructor(c), if (c.arity == 0) Nil else tps, fields, parent, caseObject = c.arity == 0, httpNames = http)
    }
  }

  /** Members every case class has: a constructor field must not be named like one. */
  private val caseClassMembers = Set("copy", "productArity", "productElement", "productPrefix", "productIterator",
    "productElementName", "productElementNames", "canEqual", "absConstructor", "apply", "unapply", "getMessage",
    "getCause", "detail", "fillInStackTrace", "getStackTrace", "printStackTrace", "getLocalizedMessage", "initCause",
    "addSuppressed", "getSuppressed", "setStackTrace")

  /** The Scala field of a constructor argument: its selector name, or a positional name. */
  private def ctorField(c: ConstructorSym, i: Int): String = c.selectorNames.lift(i).flatten match {
    case Some(n) => Naming.termName(n, caseClassMembers)
    case None => s"arg$i"
  }

  private def selectors(sels: List[FunctionSym], ctors: List[ConstructorSym], generic: Boolean, c0: Ctx): List[LSelector] =
    sels.map { s =>
      val argName = s.functionKind match { case FunctionKind.Selector(_, n) => n; case _ => s.name }
      val owners = ctors.filter(_.selectorNames.contains(Some(argName))).map { c =>
        val i = c.selectorNames.indexOf(Some(argName))
        val wild = if (!generic) "" else c.dataType.typeParams.map(_ => "_").mkString("[", ", ", "]")
        (x.ctorPath(c, c0) + wild, ctorField(c, i))
      }
      LSelector(argName, names.function(s), s.typeParams.map(p => Naming.typeParam(p.name)), x.tpe(s.paramTypes.head, c0),
        x.tpe(s.resultType, c0), owners, located = x.selectorCanFail(s))
    }

  private def exception(c: ConstructorSym): LException = {
    val c0 = ctx(c.module)
    val fields = c.argTypes.zipWithIndex.map { case (t, i) => (ctorField(c, i), x.tpe(t, c0)) }
    val ctor = LCtor(c.name, names.constructor(c), Nil, fields, T.Ref("AbsException"), caseObject = c.arity == 0)
    // Selectors of exception arguments hang off ABS.StdLib.Exception, declared in this module.
    val sels = b.exception.selectors.filter(f => (f.module eq c.module) && c.selectorNames.flatten.contains(f.name))
    LException(ctor, if (c.arity == 0) Nil else selectors(sels, List(c), generic = false, c0))
  }

  private def function(f: FunctionSym): Option[LFunction] = f.decl.map { decl =>
    decl.body match {
      case ExpBody(e) =>
        val c0 = ctx(f.module)
        val funParams = f.funParams.map { fp =>
          (x.bindFunParam(fp, c0), fp.tpe.map(x.tpe(_, c0)).getOrElse(T.Fun(List(T.Ref("Any")), T.Ref("Any"))))
        }
        val params = f.params.map(p => (x.bind(p, c0), x.tpe(p.tpe, c0)))
        LFunction(f.name, names.function(f), f.typeParams.map(p => Naming.typeParam(p.name)), funParams, params,
          x.tpe(f.resultType, c0), x.exp(e, c0), f.pos.line)
      case bb @ BuiltinBody(VarUse(SqliteQuery.Keyword) :: db :: sql :: params) =>
        val c0 = ctx(f.module)
        val ps = f.params.map(p => (x.bind(p, c0), x.tpe(p.tpe, c0)))
        LFunction(f.name, names.function(f), f.typeParams.map(p => Naming.typeParam(p.name)), Nil, ps, x.tpe(f.resultType, c0),
          sqliteQuery(f, bb, db, sql, params, c0), f.pos.line)
      case _: BuiltinBody if Library.isLibrary(f.module.name) =>
        // A library module's hook into the runtime: `AbsDC.f(params)` (cogs.absc.lib), as the declared type.
        val c0 = ctx(f.module)
        val params = f.params.map(p => (x.bind(p, c0), x.tpe(p.tpe, c0)))
        val result = x.tpe(f.resultType, c0)
        val native = Library.nativeObject(f.module.name) + "." + f.name
        LFunction(f.name, names.function(f), f.typeParams.map(p => Naming.typeParam(p.name)), Nil, params, result,
          S.TypeApp(S.Sel(S.App(S.Id(native), Nil, params.map(p => S.Id(p._1))), "asInstanceOf"), List(result)))
      case bb @ BuiltinBody(VarUse("sparql") :: _) =>
        throw new LowerError(bb.pos, s"builtin function '${f.name}' is a SPARQL query, which is not supported, because " +
          "it needs an RDF graph of the model's objects kept up to date at every object creation and field write " +
          "(the reference's Java backend only, with Apache Jena); see abs-compiler/README.md")
      case _: BuiltinBody =>
        // A model's own builtin: the static method of a class on the class path (foreignBinding).
        val c0 = ctx(f.module)
        val params = f.params.map(p => (x.bind(p, c0), x.tpe(p.tpe, c0)))
        val result = x.tpe(f.resultType, c0)
        val kind = foreignKind(f.resultType)
        LFunction(f.name, names.function(f), f.typeParams.map(p => Naming.typeParam(p.name)), Nil, params, result,
          S.App(S.Sel(S.Id(foreignName(f)), "call"), List(result), S.str(kind) :: params.map(p => S.Id(p._1))), f.pos.line)
    }
  }

  /** A model's own `builtin` function (not a query, not the library's): its implementation's Scala name. */
  private def isForeignBuiltin(f: FunctionSym): Boolean = f.decl.exists(_.body match {
    case BuiltinBody(VarUse(SqliteQuery.Keyword | "sparql") :: _) => false
    case _: BuiltinBody => !Library.isLibrary(f.module.name)
    case _ => false
  })

  /** What `cogs.absc.lib.Foreign` converts a foreign result to: the ABS result type's kind. */
  private def foreignKind(t: Type): String = t match {
    case _ if b.isInt(t) => "Int"
    case _ if b.isString(t) => "String"
    case _ if b.isBool(t) => "Bool"
    case _ if b.isFloat(t) => "Float"
    case _ if b.isUnit(t) => "Unit"
    case _ => "Other"
  }

  private def foreignName(f: FunctionSym): String = names.function(f) + "$builtin"

  /**
   * The binding of a model's own `builtin` function, made once per run (a lazy val of the module
   * object, whose class loader is the model's, with `--classpath`): the Java backend's names,
   * `public static apply(..)` of the class `Module.f_f` (`cogs.absc.lib.Foreign.function`).
   */
  private def foreignBinding(f: FunctionSym): Option[LConst] =
    if (!isForeignBuiltin(f)) None
    else {
      val lib = "_root_.cogs.absc.lib.Foreign"
      Some(LConst(foreignName(f), T.Ref("_root_.cogs.absc.lib.ForeignFunction"),
        S.App(S.Id(s"$lib.function"), Nil, List(S.str(f.module.name + "." + f.name), S.str(ForeignNames.builtinClass(f.module.name, f.name)),
          S.Lit(f.params.length.toString), S.str(x.site(f.decl.get)), S.This))))
    }

  /**
   * An SQLite query function's body: `Sqlite.query(at, file, sql, params, column kinds)(row)`,
   * where `row` makes the list's element from a row's converted columns (cogs.absc.lib.Sqlite).
   * `c0` has the function's parameters bound (the query's arguments use them).
   */
  private def sqliteQuery(f: FunctionSym, bb: BuiltinBody, db: PureExp, sql: PureExp, params: List[PureExp], c0: Ctx): S = {
    def text(e: PureExp): String = e match {
      case StringLit(v) => v
      case TemplateString(parts, Nil) => parts.mkString
      case other => throw new LowerError(other.pos, "an SQLite query's file and SQL text must be string literals")
    }
    def kind(t: Type): String = SqliteQuery.valueKind(b, t).getOrElse(throw new LowerError(bb.pos, s"no SQLite kind for $t"))
    val args = params.map(p => S.Infix(S.str(kind(program.typeOf(p))), "->", x.exp(p, c0)))
    val r = "r$"
    def col(i: Int, k: String): S = {
      val scalaType = k match {
        case "Int" => "AbsInt"
        case "Rat" => "AbsRat"
        case "Float" => "Double"
        case "Bool" => "Boolean"
        case _ => "String"
      }
      S.TypeApp(S.Sel(S.App(S.Id(r), Nil, List(S.Lit(i.toString))), "asInstanceOf"), List(T.Ref(scalaType)))
    }
    val (kinds, row) = SqliteQuery.rowShape(b, f.resultType) match {
      case Right(SqliteQuery.Single(k)) => (List(k), col(0, k))
      case Right(SqliteQuery.Row(c, ks)) =>
        (ks, S.App(S.Id(x.ctorPath(c, c0)), Nil, ks.zipWithIndex.map { case (k, i) => col(i, k) }))
      case Left(why) => throw new LowerError(bb.pos, why)
    }
    val call = S.App(S.Id("Sqlite.query"), Nil, List(S.str(x.site(bb)), S.str(text(db)), S.str(text(sql)),
      S.App(S.Id("List"), Nil, args), S.App(S.Id("List"), Nil, kinds.map(S.str))))
    S.App(call, Nil, List(S.Lambda(List((r, Some(T.Ref("IndexedSeq[Any]")))), row)))
  }

  // ------------------------------------------------------------------ interfaces and classes

  private def sig(m: MethodSym, c0: Ctx): LSig =
    LSig(m.name, names.method(m), m.params.map(p => (names.term(p.name), x.tpe(p.tpe, c0))), x.tpe(m.resultType, c0))

  private def interface(i: InterfaceSym): LInterface = {
    val c0 = ctx(i.module)
    LInterface(i.name, names.interface(i), i.directSupers.filterNot(_.module.isPrelude).map(s => T.Ref(x.ifaceRef(s, c0))),
      i.ownMethods.map(sig(_, c0)))
  }

  private def cls(c: ClassSym): LClass = {
    val c0 = ctx(c.module, Some(c))
    val params = c.params.map(f => (names.field(f), x.tpe(f.tpe, c0)))
    val fields = c.bodyFields.map { f =>
      val fc = ctx(c.module, Some(c))
      (names.field(f), x.tpe(f.tpe, fc), f.init.map(e => x.exp(e, fc)).getOrElse(x.defaultValue(f.tpe)))
    }
    val init = c.init.map { block =>
      val ic = ctx(c.module, Some(c))
      val assigned = stmts.assignedLocals(block.stmts)
      // The checker allows no scheduling point in an init block: it "may suspend" only through
      // synchronous calls of [Atomic] methods, which run at once in the constructor (the callee of
      // such a call in an init block is, in every program the reference backends accept, an object
      // of the creator's COG: `new local`, or an argument passed in by the creator).
      LInit(Some(stmts.plainStmts(block.stmts, ic, assigned)), None)
    }
    val recover = c.recover.map { br =>
      val rc = ctx(c.module, Some(c))
      if (program.maySuspend(br.body)) throw new LowerError(br.pos, "a recover branch that may suspend is not supported yet")
      val (pat, guard) = x.pattern(br.pattern, rc)
      Case(pat, guard, stmts.plainStmts(List(br.body), rc, stmts.assignedLocals(List(br.body))))
    }
    val mortal = death.mortal(c)
    // Object death: one analysis (ObjectDeath) decides, the IR records it, the printer prints it.
    val methods = c.methods.valuesIterator.flatMap { m =>
      method(c, m).map(_.copy(deadCheck = mortal, handler = death.mayFail(m)))
    }.toList
    val (allFields, allMethods) = if (c.isForeign) foreign(c, fields, methods) else (fields, methods)
    LClass(c.name, names.cls(c), params, c.interfaces.filterNot(_.module.isPrelude).map(i => T.Ref(x.ifaceRef(i, c0))),
      allFields, init, recover, mortal, allMethods, c.methods.valuesIterator.map(sig(_, c0)).toList,
      if (program.usesModelApi) Some(LHttp(httpMethods(c, c0), c.fields.map(f => (f.name, names.field(f))))) else None,
      Naming.displayName(c.name))
  }

  /**
   * A `[Foreign]` class (ABS.FLI): a field holding its foreign implementation, bound when the
   * object is made (null if none is: `cogs.absc.lib.Foreign.bind`), and each method asking it
   * first, its ABS body being the default.
   */
  private def foreign(c: ClassSym, fields: List[(String, T, S)], methods: List[LMethod]): (List[(String, T, S)], List[LMethod]) = {
    val field = "fli$impl"
    val lib = "_root_.cogs.absc.lib.Foreign"
    val bound = (c.module.name + "." + c.name)
    val f = (field, T.Ref(lib), S.App(S.Id(s"$lib.bind"), Nil, List(S.str(bound), S.This)))
    val ms = methods.map { lm =>
      val abs = c.method(lm.sig.absName).get
      val has = S.Infix(S.Infix(S.Id(field), "ne", S.Lit("null")), "&&", S.App(S.Sel(S.Id(field), "has"), Nil, List(S.str(abs.name))))
      val kind = foreignKind(abs.resultType)
      val call = S.App(S.Sel(S.Id(field), "call"), List(lm.sig.result), S.str(abs.name) :: S.str(kind) :: lm.sig.params.map(p => S.Id(p._1)))
      // Every method of a foreign class is a continuation (EffectPhase says why).
      lm.copy(cps = lm.cps.map(p => P.If(has, P.Done(call), p)))
    }
    (fields :+ f, ms)
  }

  /**
   * The `[HTTPCallable]` methods of a class's interfaces, in the order of its `implements` clause
   * (each interface before those it extends), each once.
   */
  private def httpMethods(c: ClassSym, c0: Ctx): List[LHttpMethod] = {
    def order(is: List[InterfaceSym]): List[InterfaceSym] = is.flatMap(i => i :: order(i.directSupers))
    order(c.interfaces).distinct.flatMap(_.ownMethods).filter(_.isHttpCallable).distinctBy(_.name).flatMap { im =>
      c.method(im.name).map { cm =>
        LHttpMethod(im.name, names.method(cm),
          im.params.zip(cm.params).map { case (ip, cp) => (ip.name, httpType(ip.tpe), x.tpe(cp.tpe, c0)) },
          Type.show(im.resultType))
      }
    }
  }

  /** The runtime's `HttpType` of a parameter type the checker allowed (HttpAnnotations). */
  private def httpType(t: Type): String = {
    val h = "_root_.cogs.absc.modelapi.HttpType."
    t match {
      case _ if b.isBool(t) => h + "BoolT"
      case _ if b.isInt(t) => h + "IntT"
      case _ if b.isFloat(t) => h + "FloatT"
      case _ if b.isString(t) => h + "StringT"
      case b.ListT(e) => s"${h}ListT(${httpType(e)})"
      case Type.Data(_, List(_, v)) => s"${h}MapT(${httpType(v)})"
      case other => throw new IllegalStateException(s"absc: [HTTPCallable] parameter of type ${Type.show(other)} passed the checker")
    }
  }

  private def method(c: ClassSym, m: MethodSym): Option[LMethod] = m.body.map { body =>
    val mc = ctx(c.module, Some(c))
    val assigned = stmts.assignedLocals(body.stmts)
    // ABS parameters are assignable; Scala parameters are not: shadow those the body assigns.
    val shadowed = m.params.filter(assigned).map { p =>
      val in = mc.locals.temp(names.term(p.name) + "_in")
      (in, x.bind(p, mc))
    }
    m.params.filterNot(assigned).foreach(x.bind(_, mc))
    val signature = sig(m, mc).copy(params = m.params.map { p =>
      val n = shadowed.collectFirst { case (in, local) if local == x.local(p) => in }.getOrElse(x.local(p))
      (n, x.tpe(p.tpe, mc))
    })
    val isRun = m.name == "run" && m.params.isEmpty
    if (program.needsContinuation(m))
      LMethod(signature, isRun, shadowed, None, Some(stmts.cpsBlock(body.stmts, mc, assigned, tail = true)),
        frame = if (program.hasFrameForm(m)) Some(names.frameMethod(m)) else None)
    else {
      val (init, result) = body.stmts.lastOption match {
        case Some(r: ReturnStmt) => (body.stmts.init, Some(r))
        case _ => (body.stmts, None)
      }
      val stats = stmts.plainStmts(init, mc, assigned)
      val value = result.map(r => r.exp match {
        case p: PureExp => x.exp(p, mc)
        case e: EffExp => x.plainEffect(e, mc)
      }).getOrElse(S.Unit)
      LMethod(signature, isRun, shadowed, Some((stats, value)), None,
        if (program.hasDirectForm(m)) Some(names.directMethod(m)) else None)
    }
  }

  private def mainBlock(m: ModuleSym, block: Block): LMain = {
    val mc = ctx(m)
    val end = testResult(m).map(v => program.declared(v).asInstanceOf[LocalSym])
    LMain(end.isDefined, stmts.cpsBlock(block.stmts, mc, stmts.assignedLocals(block.stmts), tail = false, end = end))
  }
}
