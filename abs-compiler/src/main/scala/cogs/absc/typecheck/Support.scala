package cogs.absc.typecheck

import cogs.absc.ast._

/** Reading annotations: `[Atomic]` is a fragment without tag whose value is the constructor `Atomic`. */
private[typecheck] object Annotations {

  /** The name an annotation fragment is known by: its tag (`Cost` in `[Cost: 5]`), else its constructor (`Atomic`). */
  def nameOf(a: Annotation): Option[String] = a.tag match {
    case Some(t) => Some(t.name)
    case None => a.value match {
      case ConstructorApp(c, _) => Some(c.name)
      case _ => None
    }
  }

  def has(as: List[Annotation], name: String): Boolean = as.exists(a => a.tag.isEmpty && nameOf(a).contains(name))

  /** Honoured by the checker. */
  val Checked: Set[String] = Set("Final", "Atomic", "Readonly")

  /** The tag of a user-defined scheduler, `[Scheduler: f(queue, ..)]`: see SchedulerAnnotations. */
  val Scheduler = "Scheduler"
  /** `[Foreign]` on a class (ABS.FLI): accepted, its ABS methods run (no foreign binding yet). */
  val Foreign = "Foreign"

  /** The Model API's annotations: see HttpAnnotations. */
  val HttpName = "HTTPName"
  val HttpCallable = "HTTPCallable"

  /**
   * Accepted without a word: they only guide static analyses of the reference toolchain
   * (location types, nullability, Crowbar specifications) and mean nothing at run time.
   */
  val Ignored: Set[String] = Set(
    "Far", "Near", "Somewhere", "Infer", "Nullable", "Nonnull", "TypeAnnotation",
    "Spec", "ObjInv", "Ensures", "Requires", "WhileInv", "Resolves", "Local", "Role", "Succeeds", "Overlaps",
    "DomainClass", "Plain", "COG")

  /** Deployment components and resources: errors, since they change what a model means. */
  val Deployment: Set[String] = Set("MaxSize", "CogLocation")

  /** Timed ABS annotations with a meaning at run time (checked and lowered: see TimedAnnotations). */
  val Timed: Set[String] = Set("Cost", "Deadline", "DC", "DataSize")

  /** Known to the reference toolchain, not (yet) to Cogs: a warning, then ignored. */
  val Unsupported: Map[String, String] = Map(
    "Critical" -> "deadlines of Timed ABS",
    "Expansion" -> "internal use of the reference toolchain",
    "ExpansionCall" -> "internal use of the reference toolchain")
}

/** Names of the library module ABS.DC, for "add the import" instead of "unknown"; and modules Cogs does not provide. */
private[typecheck] object Unsupported {


  val DeploymentTypes: Set[String] = Set(
    "DeploymentComponent", "DC", "CloudProvider", "Resourcetype", "InfRat", "Cost", "DataSize", "MaxSize",
    "CogLocation")
  val DeploymentConstructors: Set[String] = Set("Speed", "Cores", "Bandwidth", "Memory", "Startupduration",
    "Shutdownduration", "PaymentInterval", "CostPerInterval", "InfRat", "Fin")
  val DeploymentFunctions: Set[String] = Set("thisDC", "finvalue")

  /** Modules of the reference toolchain's library that Cogs does not provide. */
  val Modules: Map[String, String] = Map(
    "ABS.SmartDeploy" -> "the module ABS.SmartDeploy (smart deployment)",
    "ABS.StdLib.Exceptions" -> "the module ABS.StdLib.Exceptions (the predefined exceptions are in ABS.StdLib)")

  def forName(ns: Namespace, name: String): Option[String] = ns match {
    case Namespace.Type if DeploymentTypes(name) => Some(s"the deployment type '$name'")
    case Namespace.Constructor if DeploymentConstructors(name) => Some(s"the deployment constructor '$name'")
    case Namespace.Function if DeploymentFunctions(name) => Some(s"the deployment function '$name'")
    case Namespace.Class if DeploymentTypes(name) => Some(s"the deployment class '$name'")
    case _ => None
  }
}

/** "Did you mean ...?" (also for the product line's names, cogs.absc.spl) */
private[absc] object Suggest {

  /** Edit distance with adjacent transpositions ("lenght" is one edit from "length"). */
  def distance(a: String, b: String): Int = {
    val d = Array.ofDim[Int](a.length + 1, b.length + 1)
    for (i <- 0 to a.length) d(i)(0) = i
    for (j <- 0 to b.length) d(0)(j) = j
    for (i <- 1 to a.length; j <- 1 to b.length) {
      val cost = if (a.charAt(i - 1) == b.charAt(j - 1)) 0 else 1
      d(i)(j) = math.min(math.min(d(i - 1)(j) + 1, d(i)(j - 1) + 1), d(i - 1)(j - 1) + cost)
      if (i > 1 && j > 1 && a.charAt(i - 1) == b.charAt(j - 2) && a.charAt(i - 2) == b.charAt(j - 1))
        d(i)(j) = math.min(d(i)(j), d(i - 2)(j - 2) + 1)
    }
    d(a.length)(b.length)
  }

  /** The closest candidate, if close enough to be a likely typo. */
  def closest(name: String, candidates: Iterable[String]): Option[String] = {
    val limit = if (name.length <= 2) 0 else if (name.length <= 4) 1 else if (name.length <= 7) 2 else 3
    val scored = candidates.iterator.filter(_ != name).map(c => (c, distanceCaseless(name, c))).filter { case (_, d) => d <= limit && limit > 0 }.toList
    if (scored.isEmpty) None
    else Some(scored.minBy { case (c, d) => (d, c) }._1)
  }

  private def distanceCaseless(a: String, b: String): Int =
    if (a.equalsIgnoreCase(b)) 0 else distance(a, b)

  /** `; did you mean 'x'?` or nothing. */
  def hint(name: String, candidates: Iterable[String]): String =
    closest(name, candidates).fold("")(c => s"; did you mean '$c'?")
}
