package cogs.absc.lower

import cogs.absc.typecheck._

/**
 * The Scala name of every declaration of one program, by [[Naming]]'s scheme, and how to refer
 * to it from a given module: unqualified inside its own module, `Module.name` elsewhere.
 */
private[lower] final class Names(program: TypedProgram, val pkg: String) {
  private val userModules = program.userModules

  val moduleObjects: Map[ModuleSym, String] = userModules.map(m => m -> Naming.moduleObject(m.name)).toMap
  private val moduleObjectNames = moduleObjects.values.toSet

  /** Every function name of the program (the standard library's included): no member or local may hide one. */
  private val functionNames: Set[String] =
    // `modules` includes the prelude, whose `Exception` has the selectors of every exception's arguments.
    // ABS.Scheduler's functions are emitted qualified (`AbsProcess.value`): they hide nothing.
    program.modules.filterNot(_.name == Prelude.SchedulerModule)
      .flatMap(m => m.functions ++ m.dataTypes.flatMap(_.selectors)).map(_.name).toSet

  private val preludeFunctionNames: Set[String] =
    program.prelude.functions.map(_.name).toSet ++ program.prelude.dataTypes.flatMap(_.selectors).map(_.name)

  /** A method, field or local: never hides a function, a helper, a keyword or a member of the runtime's classes. */
  def term(name: String): String = Naming.termName(name, functionNames)

  /** A user function (or selector): kept unless it would hide the standard library or a helper. */
  def function(f: FunctionSym): String = Naming.termName(f.name, preludeFunctionNames)

  def method(m: MethodSym): String = if (m.name == "run" && m.params.isEmpty) "run" else term(m.name)

  /** The value-returning form of a method that direct synchronous calls use (no ABS name contains `$`). */
  def directMethod(m: MethodSym): String = method(m) + "$now"

  /** The frame form of a method compiled as a continuation: its body without the failure handler (see EffectPhase). */
  def frameMethod(m: MethodSym): String = method(m) + "$body"

  private def typeLevel(name: String): String = Naming.typeName(name, moduleObjectNames)

  /** Type-level Scala names already taken in each module by data types, constructors and exceptions. */
  private val dataNames: Map[ModuleSym, Set[String]] = userModules.map { m =>
    m -> (m.dataTypes.flatMap(d => typeLevel(d.name) :: d.constructors.map(c => typeLevel(c.name))) ++
      m.exceptions.map(c => typeLevel(c.name))).toSet
  }.toMap

  def dataType(d: DataTypeSym): String = typeLevel(d.name)
  def constructor(c: ConstructorSym): String = typeLevel(c.name)

  def interface(i: InterfaceSym): String = {
    val n = typeLevel(i.name)
    if (dataNames.getOrElse(i.module, Set.empty)(n)) n + "$Iface" else n
  }

  /** A class shares Scala's type namespace with data types and interfaces; on a clash it is `C$Class`. */
  def cls(c: ClassSym): String = {
    val n = typeLevel(c.name)
    val taken = dataNames.getOrElse(c.module, Set.empty) ++ c.module.interfaces.map(interface)
    if (taken(n)) n + "$Class" else n
  }

  /** A field: like any member; `$f` if a method of the class has the same Scala name. */
  def field(f: FieldSym): String = {
    val n = term(f.name)
    if (f.owner.methods.valuesIterator.exists(m => method(m) == n)) n + "$f" else n
  }

  /** `name` as seen from module `from`: unqualified in its own module. */
  def ref(owner: ModuleSym, name: String, from: Option[ModuleSym]): String =
    if (from.contains(owner)) name else s"${moduleObjects(owner)}.$name"

  /** Fully qualified, for places where a nested declaration hides the module's names. */
  def full(owner: ModuleSym, name: String): String = s"$pkg.${moduleObjects(owner)}.$name"
}
