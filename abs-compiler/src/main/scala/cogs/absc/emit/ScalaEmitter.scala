package cogs.absc.emit

import cogs.absc.ast._
import cogs.absc.typecheck._

/** A generated Scala source file. */
final case class EmittedFile(relativePath: String, text: String)

/** The Scala translation of a checked ABS program. `mainObject` runs the main block, if there is one. */
final case class EmittedProgram(files: List[EmittedFile], mainObject: Option[String])

/**
 * The last phase of absc: a checked ABS program to readable Scala on the Cogs runtime.
 *
 * The shape of the output (see abs-compiler/README.md, "Generated code"):
 *  - one Scala file and one `object` per ABS module (`module Bank.Core` is `object Bank_Core`),
 *    holding its data types (sealed traits and case classes, see docs/values.md), functions
 *    (methods of the object), interfaces and classes;
 *  - an interface is a trait extending `cogs.runtime.Active` whose methods return `Proc[T]`, and
 *    its companion has one message constructor per method (`Account.deposit(x)` is the call
 *    `_.deposit(x)` with `x` evaluated now, as ABS evaluates arguments at the call);
 *  - a class is a `cogs.runtime.ActiveObject`; its init block is the constructor body, its
 *    `run` method overrides `ActiveObject.run`;
 *  - a method that cannot reach a scheduling point is plain Scala returning `Proc.done(v)`; in
 *    one that can, the code after each scheduling point becomes a continuation:
 *    `Proc.await(g).flatMap { _ => rest }` (see [[Lowering]]);
 *  - the main block becomes `def main(): Proc[Any]` of its module's object, run by
 *    `cogs.absc.driver.ProgramRunner` from a `Main` object.
 */
object ScalaEmitter {
  def emit(program: TypedProgram): EmittedProgram = new ScalaEmitter(program, DefaultPackage).emit()

  /**
   * Emit with the instrumentation a monitor configuration asks for: asynchronous calls that may
   * reach an observed method pass their arguments to the trace, and the main object runs the
   * program under the embedded monitor pipeline. Nothing else changes.
   */
  def emit(program: TypedProgram, instrumentation: Instrumentation): EmittedProgram =
    new ScalaEmitter(program, DefaultPackage, instrumentation).emit()

  /**
   * Emit into another package (`p.Bank`, runner `p_main.Main`), so that several programs can be
   * compiled together, as the corpus test does.
   */
  def emit(program: TypedProgram, pkg: String): EmittedProgram = new ScalaEmitter(program, pkg).emit()

  /** The package of generated code. */
  val DefaultPackage = "absmodel"
}

private[emit] final class ScalaEmitter(val program: TypedProgram, val Package: String,
    val instrumentation: Instrumentation = Instrumentation.Off) {
  val b: Builtins = program.builtins
  val exps = new Expressions(this)
  val lowering = new Lowering(this)

  // ------------------------------------------------------------------ where continuations are needed

  /** The synchronous calls on `this` that a statement makes (calls only appear at a statement's top). */
  private def thisCalls(s: Stmt): List[SyncCall] = {
    val b = List.newBuilder[SyncCall]
    def top(e: Exp): Unit = e match {
      case c @ SyncCall(ThisExp(), _, _) => b += c
      case _ => ()
    }
    Lowering.exists(s) {
      case v: VarDeclStmt => v.init.foreach(top); false
      case a: AssignStmt => top(a.value); false
      case e: ExpStmt => top(e.exp); false
      case r: ReturnStmt => top(r.exp); false
    }
    b.result()
  }

  /**
   * Methods on a cycle of synchronous calls on `this`. They are compiled with continuations even
   * when they never suspend: the recursion then lives on the process's heap stack, so a million
   * nested calls do not overflow the JVM stack.
   */
  private lazy val cyclic: Set[MethodSym] = {
    val calls: Map[MethodSym, Set[MethodSym]] = program.classes.flatMap(_.methods.values).map { m =>
      m -> m.body.toList.flatMap(b => thisCalls(b)).map(c => program.methodOf(c)).toSet
    }.toMap
    def reaches(from: MethodSym, target: MethodSym): Boolean = {
      val seen = scala.collection.mutable.Set.empty[MethodSym]
      def go(m: MethodSym): Boolean = calls.getOrElse(m, Set.empty).exists(n => (n eq target) || (seen.add(n) && go(n)))
      go(from)
    }
    calls.keysIterator.filter(m => reaches(m, m)).toSet
  }

  /** Does this synchronous call need a continuation (the callee may suspend, or recurses)? */
  def cpsCall(c: SyncCall): Boolean = program.maySuspend(c) || (c.target.isInstanceOf[ThisExp] && cyclic(program.methodOf(c)))

  def cpsStmt(s: Stmt): Boolean = program.maySuspend(s) || thisCalls(s).exists(cpsCall)

  def cpsMethod(m: MethodSym): Boolean = program.maySuspend(m) || m.body.exists(b => cpsStmt(b))

  def emit(): EmittedProgram = {
    val files = program.userModules.map(emitModule)
    val mains = program.userModules.filter(_.main.isDefined)
    // The last module with a main block is the program's entry point (as in the ABS tools).
    val monitorArg = instrumentation.monitorConfig.fold("")(c => s", monitor = ${Names.stringLit(c)}")
    val main = mains.lastOption.map { m =>
      val text =
        s"""// Generated by absc. Runs the main block of module ${m.name}.
           |package ${Package}_main
           |
           |object Main {
           |  def main(args: Array[String]): Unit =
           |    cogs.absc.driver.ProgramRunner.${if (hasTestResult(m)) "runTest" else "runMain"}(args, _ => $Package.${Names.moduleObject(m)}.main()$monitorArg)
           |}
           |""".stripMargin
      EmittedFile(s"${Package.replace('.', '/')}_main/Main.scala", text)
    }
    EmittedProgram(files ++ main.toList, main.map(_ => s"${Package}_main.Main"))
  }

  private def hasTestResult(m: ModuleSym): Boolean =
    m.main.exists(_.stmts.exists { case v: VarDeclStmt => v.name == "testresult"; case _ => false })

  // ------------------------------------------------------------------ types

  /** The Scala type of an ABS type. */
  def scalaType(t: Type): String = t match {
    case Type.Data(d, args) if d.module.isPrelude => preludeType(d.name, args)
    case Type.Data(d, Nil)                        => qualified(d.module, d.name)
    case Type.Data(d, args)                       => qualified(d.module, d.name) + args.map(scalaType).mkString("[", ", ", "]")
    case Type.Iface(i) if i.module.isPrelude      => "cogs.runtime.Active" // ABS.StdLib.Object
    case Type.Iface(i)                            => qualified(i.module, i.name)
    case Type.Obj(c)                              => qualified(c.module, className(c))
    case Type.Param(p)                            => typeParam(p.name)
    case Type.Fun(ps, r)                          => ps.map(scalaType).mkString("(", ", ", ")") + " => " + scalaType(r)
    case Type.Null                                => "Null"
    case Type.Bottom                              => "scala.Nothing"
    case other                                    => throw new IllegalStateException(s"absc: no Scala type for $other")
  }

  private def preludeType(name: String, args: List[Type]): String = {
    def a(i: Int) = scalaType(args(i))
    name match {
      case "Int"       => "AbsInt"
      case "Rat"       => "AbsRat"
      case "Float"     => "Double"
      case "String"    => "String"
      case "Bool"      => "Boolean"
      case "Unit"      => "Unit"
      case "Fut"       => s"Fut[${a(0)}]"
      case "Destiny"   => "Fut[_]"
      case "Exception" => "AbsException"
      case "List"      => s"List[${a(0)}]"
      case "Set"       => s"AbsSet[${a(0)}]"
      case "Map"       => s"AbsMap[${a(0)}, ${a(1)}]"
      case "Pair"      => s"Pair[${a(0)}, ${a(1)}]"
      case "Triple"    => s"Triple[${a(0)}, ${a(1)}, ${a(2)}]"
      case "Maybe"     => s"Maybe[${a(0)}]"
      case "Either"    => s"cogs.absc.lib.Either[${a(0)}, ${a(1)}]"
      case other       => if (args.isEmpty) other else other + args.map(scalaType).mkString("[", ", ", "]")
    }
  }

  def typeParam(n: String): String = n + "_"

  def qualified(m: ModuleSym, name: String): String = s"$Package.${Names.moduleObject(m)}.${Names.id(name)}"

  /** A constructor: `Mod.C`, or `Mod.T.T` for a constructor named like its multi-constructor data type. */
  def ctorRef(c: ConstructorSym): String =
    if (!c.isException && c.name == c.dataType.name && c.dataType.constructors.length > 1)
      qualified(c.module, c.dataType.name) + "." + Names.id(c.name)
    else qualified(c.module, c.name)

  // Classes share a Scala namespace with data types and constructors; rename on a clash.
  private lazy val typeNames: Set[(ModuleSym, String)] = program.userModules.flatMap { m =>
    m.declarations.collect {
      case d: DataTypeSym => (m, d.name)
      case i: InterfaceSym => (m, i.name)
      case t: TypeSynSym => (m, t.name)
    } ++ m.dataTypes.flatMap(_.constructors.map(c => (m, c.name))) ++ m.exceptions.map(c => (m, c.name))
  }.toSet

  def className(c: ClassSym): String = if (typeNames((c.module, c.name))) c.name + "Class" else c.name

  def ifaceType(i: InterfaceSym): String = scalaType(Type.Iface(i))

  /** Does a call of `m` possibly reach a method that the monitor configuration observes? */
  def observedCall(m: MethodSym): Boolean = instrumentation.enabled && {
    val receivers = m.owner match {
      case c: ClassSym     => List(c)
      case i: InterfaceSym => program.classes.filter(_.allInterfaces.contains(i))
      case _               => program.classes
    }
    receivers.exists(c => instrumentation.observesClass(c.name) && instrumentation.observesMethod(c.name, m.name))
  }

  // ------------------------------------------------------------------ modules

  private def emitModule(m: ModuleSym): EmittedFile = {
    val out = new Out
    out.line(s"// Generated by absc from ${m.file} (module ${m.name}). Edit the ABS model, not this file.")
    out.line(s"package $Package")
    out.line("")
    out.line("import cogs.runtime._")
    out.line("import cogs.absc.lib._")
    out.line("")
    out.line(s"object ${Names.moduleObject(m)} {")
    out.indented {
      m.declarations.foreach {
        case d: DataTypeSym => emitData(out, d)
        case f: FunctionSym if !f.isSelector => emitFunction(out, f)
        case i: InterfaceSym => emitInterface(out, i)
        case c: ClassSym => emitClass(out, c)
        case c: ConstructorSym if c.isException => emitException(out, c)
        case _ => ()
      }
      m.main.foreach(block => emitMain(out, m, block))
    }
    out.line("}")
    EmittedFile(s"${Names.moduleObject(m)}.scala", out.result)
  }

  // ------------------------------------------------------------------ data types and functions

  private def typeParamList(ps: List[TypeParamSym], variance: String = ""): String =
    if (ps.isEmpty) "" else ps.map(p => variance + typeParam(p.name)).mkString("[", ", ", "]")

  private def emitData(out: Out, d: DataTypeSym): Unit = {
    out.line("")
    out.line(s"// data ${d.name}")
    val tps = typeParamList(d.typeParams, "+")
    val tpsUse = typeParamList(d.typeParams)
    val single = d.constructors match {
      case List(c) if c.name == d.name => true
      case _ => false
    }
    val parent = if (single) "AbsData" else s"${Names.id(d.name)}$tpsUse"
    if (!single) out.line(s"sealed trait ${Names.id(d.name)}$tps extends AbsData")
    val (inCompanion, plainCtors) = d.constructors.partition(c => !single && c.name == d.name)
    if (inCompanion.nonEmpty) {
      out.line(s"object ${Names.id(d.name)} {")
      out.indented(inCompanion.foreach(c => emitCtor(out, d, c, s"${qualified(d.module, d.name)}$tpsUse", tps)))
      out.line("}")
    }
    plainCtors.foreach(c => emitCtor(out, d, c, parent, tps))
    emitSelectors(out, d.selectors, d.constructors, d.typeParams.nonEmpty)
  }

  private def emitCtor(out: Out, d: DataTypeSym, c: ConstructorSym, parent: String, tps: String): Unit = {
    locally {
      val fields = c.argTypes.zipWithIndex.map { case (t, i) => s"${ctorField(c, i)}: ${scalaType(t)}" }
      if (c.arity == 0 && d.typeParams.isEmpty)
        out.line(s"case object ${Names.id(c.name)} extends $parent")
      else if (c.arity == 0) {
        val nothingArgs = d.typeParams.map(_ => "scala.Nothing").mkString("[", ", ", "]")
        out.line(s"case object ${Names.id(c.name)} extends ${qualified(d.module, d.name)}$nothingArgs")
      } else
        out.line(s"final case class ${Names.id(c.name)}$tps(${fields.mkString(", ")}) extends $parent")
    }
  }

  /** Selector functions: `def A head(List<A> l)` from `Cons(A head, ..)`. */
  private def emitSelectors(out: Out, selectors: List[FunctionSym], ctors: List[ConstructorSym], generic: Boolean): Unit =
    selectors.foreach { s =>
      val argName = s.functionKind match { case FunctionKind.Selector(_, n) => n; case _ => s.name }
      val owners = ctors.filter(_.selectorNames.contains(Some(argName)))
      val ftps = typeParamList(s.typeParams)
      out.line(s"def ${Names.id(s.name)}$ftps(x: ${scalaType(s.paramTypes.head)}): ${scalaType(s.resultType)} = x match {")
      out.indented {
        owners.foreach { c =>
          val i = c.selectorNames.indexOf(Some(argName))
          val wild = if (!generic) "" else c.dataType.typeParams.map(_ => "_").mkString("[", ", ", "]")
          out.line(s"case c: ${ctorRef(c)}$wild => c.${ctorField(c, i)}")
        }
        out.line(s"case other => matchFail(other, ${Names.stringLit(s.name)})")
      }
      out.line("}")
    }

  /** The Scala field of a constructor argument: its selector name, or a positional name. */
  def ctorField(c: ConstructorSym, i: Int): String = c.selectorNames.lift(i).flatten match {
    case Some(n) => Names.id(n)
    case None => s"arg$i"
  }

  private def emitException(out: Out, c: ConstructorSym): Unit = {
    out.line("")
    if (c.arity == 0) out.line(s"case object ${Names.id(c.name)} extends AbsException")
    else {
      val fields = c.argTypes.zipWithIndex.map { case (t, i) => s"${ctorField(c, i)}: ${scalaType(t)}" }
      out.line(s"final case class ${Names.id(c.name)}(${fields.mkString(", ")}) extends AbsException")
      // Selectors of exception arguments hang off ABS.StdLib.Exception, declared in this module.
      val sels = b.exception.selectors.filter(f => (f.module eq c.module) && c.selectorNames.flatten.contains(f.name))
      emitSelectors(out, sels, List(c), generic = false)
    }
  }

  private def emitFunction(out: Out, f: FunctionSym): Unit = {
    val decl = f.decl.getOrElse(return)
    out.line("")
    val tps = typeParamList(f.typeParams)
    val funParams = f.funParams.map { fp =>
      val t = fp.tpe.map(scalaType).getOrElse("Any => Any")
      s"${Names.local(fp.name)}: $t"
    }
    val params = f.params.map(p => s"${Names.local(p.name)}: ${scalaType(p.tpe)}")
    val paramLists = (if (funParams.nonEmpty) s"(${funParams.mkString(", ")})" else "") + s"(${params.mkString(", ")})"
    decl.body match {
      case ExpBody(e) =>
        out.line(s"def ${Names.id(f.name)}$tps$paramLists: ${scalaType(f.resultType)} =")
        out.indented(out.line(exps.exp(e, Scope.function)))
      case b: BuiltinBody =>
        // Only the standard library's builtins have an implementation (cogs.absc.lib).
        throw new EmitError(b.pos, s"builtin function '${f.name}' is not supported yet: only the standard library's builtin functions are implemented")
    }
  }

  // ------------------------------------------------------------------ interfaces and classes

  private def methodParams(m: MethodSym): String =
    m.params.map(p => s"${Names.local(p.name)}: ${scalaType(p.tpe)}").mkString(", ")

  private def emitInterface(out: Out, i: InterfaceSym): Unit = {
    out.line("")
    val supers = i.directSupers.filterNot(_.module.isPrelude).map(ifaceType)
    out.line(s"trait ${Names.id(i.name)} extends ${("cogs.runtime.Active" :: supers).mkString(" with ")} {")
    out.indented {
      i.ownMethods.foreach { m =>
        out.line(s"def ${Names.member(m.name)}(${methodParams(m)}): Proc[${scalaType(m.resultType)}]")
      }
    }
    out.line("}")
    // Message constructors: the arguments are evaluated when the call is made.
    out.line(s"object ${Names.id(i.name)} {")
    out.indented {
      i.ownMethods.foreach { m =>
        val args = m.params.map(p => Names.local(p.name)).mkString(", ")
        out.line(s"def ${Names.member(m.name)}(${methodParams(m)}): ${Names.id(i.name)} => Proc[${scalaType(m.resultType)}] = _.${Names.member(m.name)}($args)")
      }
    }
    out.line("}")
  }

  private def emitClass(out: Out, c: ClassSym): Unit = {
    out.line("")
    val name = className(c)
    val params = c.params.map(f => s"var ${Names.member(f.name)}: ${scalaType(f.tpe)}").mkString(", ")
    val ifaces = c.interfaces.filterNot(_.module.isPrelude).map(ifaceType)
    out.line(s"final class ${Names.id(name)}($params) extends ${("cogs.runtime.ActiveObject" :: ifaces).mkString(" with ")} {")
    out.indented {
      c.bodyFields.foreach { f =>
        val init = f.init.map(e => exps.exp(e, Scope.cls(c))).getOrElse(defaultValue(f.tpe))
        out.line(s"var ${Names.member(f.name)}: ${scalaType(f.tpe)} = $init")
      }
      // Traces and monitor configurations name the class as the model does.
      out.line(s"override def traceName: String = ${Names.stringLit(c.name)}")
      // An uncaught exception kills the object unless `recover` handles it (ABS semantics).
      out.line("private[this] var dead$ : AbsException = null")
      emitRecover(out, c)
      c.init.foreach { block =>
        out.line("")
        out.line("// init block")
        if (program.maySuspend(block: Stmt))
          throw new EmitError(block.pos, "an init block that may suspend is not supported yet")
        out.line("locally {")
        out.indented(out.lines(lowering.plainBlock(block.stmts, Scope.cls(c))))
        out.line("}")
      }
      c.methods.valuesIterator.foreach(m => emitMethod(out, c, m))
      out.line("")
      out.line(s"override def toString: String = s\"${c.name}#$${System.identityHashCode(this)}\"")
    }
    out.line("}")
    // Message constructors for calls on `this` (methods not in any interface included).
    out.line(s"object ${Names.id(name)} {")
    out.indented {
      c.methods.valuesIterator.foreach { m =>
        val args = m.params.map(p => Names.local(p.name)).mkString(", ")
        out.line(s"def ${Names.member(m.name)}(${methodParams(m)}): ${Names.id(name)} => Proc[${scalaType(m.resultType)}] = _.${Names.member(m.name)}($args)")
      }
    }
    out.line("}")
  }

  private def usesDie(c: ClassSym): Boolean =
    c.methods.valuesIterator.exists(_.body.exists(b => Lowering.exists(b) { case _: DieStmt => true }))

  def defaultValue(t: Type): String = t match {
    case _ if b.isInt(t) => "AbsInt(0)"
    case _ if b.isRat(t) => "AbsInt(0)"
    case _ if b.isFloat(t) => "0.0"
    case _ if b.isBool(t) => "false"
    case _ if b.isUnit(t) => "()"
    case _ => "null"
  }

  private def emitMethod(out: Out, c: ClassSym, m: MethodSym): Unit = {
    val body = m.body.getOrElse(return)
    out.line("")
    val isRun = m.name == "run" && m.params.isEmpty
    val over = if (isRun) "override " else ""
    // ABS parameters are assignable; Scala parameters are not: shadow those the body assigns.
    val assigned = m.params.filter(p => Lowering.assigns(body.stmts, p.name))
    val sig = m.params.map { p =>
      val n = if (assigned.contains(p)) Names.local(p.name + "$in") else Names.local(p.name)
      s"$n: ${scalaType(p.tpe)}"
    }.mkString(", ")
    out.line(s"${over}def ${Names.member(m.name)}($sig): Proc[${scalaType(m.resultType)}] = {")
    out.indented {
      val scope = Scope.method(c, m)
      assigned.foreach(p => out.line(s"var ${Names.local(p.name)} = ${Names.local(p.name + "$in")}"))
      val code =
        if (cpsMethod(m)) lowering.cpsBlock(body.stmts, scope, tail = true)
        else lowering.plainBody(body.stmts, scope)
      out.line("if (dead$ != null) throw ObjectDeadException")
      if (cpsMethod(m))
        out.lines(List("Proc.defer {") ++ Out.indent(code) ++ List("}.recoverWith { case e: Throwable => Proc.raise(recover$(e)) }"))
      else
        out.lines(List("try {") ++ Out.indent(code) ++ List("} catch { case e: Throwable => throw recover$(e) }"))
    }
    out.line("}")
  }

  /**
   * `recover$(e)`: called with every exception that leaves a method. A matching branch of the
   * class's `recover` block runs and the object survives; otherwise the object dies (later calls
   * fail with ObjectDeadException). Either way the exception goes on to the caller's future.
   */
  private def emitRecover(out: Out, c: ClassSym): Unit = {
    out.line("private[this] def recover$(e: Throwable): Throwable = {")
    out.indented {
      out.line("if (dead$ == null) AbsException.lift(e) match {")
      out.indented {
        c.recover.foreach { br =>
          val (pat, guard) = exps.pattern(br.pattern, Scope.cls(c))
          if (program.maySuspend(br.body)) throw new EmitError(br.pos, "a recover branch that may suspend is not supported yet")
          out.line(s"case $pat${guard.map(g => s" if $g").getOrElse("")} =>")
          out.indented(out.lines(lowering.plainBlock(List(br.body), Scope.cls(c)) :+ "()"))
        }
        out.line("case a: AbsException => dead$ = a")
        out.line("case _ => dead$ = ObjectDeadException")
      }
      out.line("}")
      out.line("e")
    }
    out.line("}")
  }

  private def emitMain(out: Out, m: ModuleSym, block: Block): Unit = {
    out.line("")
    out.line("// the main block")
    val test = hasTestResult(m)
    out.line(s"def main(): Proc[${if (test) "Boolean" else "Unit"}] = {")
    out.indented {
      val scope = Scope.main(m)
      val end = if (test) Some("testresult") else None
      out.lines(lowering.cpsBlock(block.stmts, scope, tail = false, end = end))
    }
    out.line("}")
  }
}

/** Where code is emitted: what `this` is, and which method (for messages). */
private[emit] final case class Scope(cls: Option[ClassSym], method: Option[MethodSym], inFunction: Boolean)
private[emit] object Scope {
  val function: Scope = Scope(None, None, inFunction = true)
  def cls(c: ClassSym): Scope = Scope(Some(c), None, inFunction = false)
  def method(c: ClassSym, m: MethodSym): Scope = Scope(Some(c), Some(m), inFunction = false)
  def main(m: ModuleSym): Scope = Scope(None, None, inFunction = false)
}

/** An ABS construct the emitter cannot translate yet: reported as an ABS error, not a crash. */
final class EmitError(val pos: Pos, message: String) extends RuntimeException(message)

/** Lines of code with indentation. */
private[emit] final class Out {
  private val sb = new StringBuilder
  private var depth = 0
  def line(s: String): Unit = {
    if (s.isEmpty) sb += '\n' else { sb ++= "  " * depth; sb ++= s; sb += '\n' }
  }
  def lines(ls: List[String]): Unit = ls.foreach(line)
  def indented(body: => Unit): Unit = { depth += 1; try body finally depth -= 1 }
  def result: String = sb.result()
}

private[emit] object Out {
  def indent(ls: List[String]): List[String] = ls.map(l => if (l.isEmpty) l else "  " + l)
}
