package cogs.monitor.pipeline

import cogs.trace.TraceEvent
import cogs.trace.TraceEvent._

/** The keys and completion events that configuration can name, for trace events. */
object TraceKeys {

  /** The future an event is about, or null. */
  def future(e: TraceEvent): AnyRef = e match {
    case x: CallSent       => x.fut
    case x: Started        => x.fut
    case x: Suspended      => x.fut
    case x: Resumed        => x.fut
    case x: Completed      => x.fut
    case x: FutureResolved => x.fut
    case x: Get            => x.fut
    case _                 => null
  }

  /** The object serving the call an event is about (a call's callee, a process's object), or the created child; else null. */
  def callee(e: TraceEvent): AnyRef = e match {
    case x: CallSent       => x.callee
    case x: Created        => x.child
    case x: Started        => x.obj
    case x: Suspended      => x.obj
    case x: Resumed        => x.obj
    case x: Completed      => x.obj
    case x: FutureResolved => x.obj
    case _                 => null
  }

  /** `Class.method` of the call or process an event is about, or null. */
  def method(e: TraceEvent): AnyRef = e match {
    case x: CallSent  => if (x.callee eq null) null else s"${x.callee.cls}.${x.method}"
    case x: Started   => s"${x.obj.cls}.${x.method}"
    case x: Suspended => s"${x.obj.cls}.${x.method}"
    case x: Resumed   => s"${x.obj.cls}.${x.method}"
    case x: Completed => s"${x.obj.cls}.${x.method}"
    case _            => null
  }

  /** The n-th argument of a call, or the n-th payload value of a user event; else null. */
  def arg(n: Int)(e: TraceEvent): Any = e match {
    case x: CallSent if n < x.args.length => x.args(n)
    case x: User if n < x.payload.length  => x.payload(n)
    case _                                => null
  }

  private val ArgN = """arg(\d+)""".r

  /** Names accepted by `dispatcher.key`, besides a class name. */
  val names: List[String] = List("object", "callee", "future", "method", "class", "arg0, arg1, ...")

  /** The key function called `name`, if it is one of [[names]]. */
  def byName(name: String): Option[TraceEvent => Any] = name match {
    case "object"  => Some(e => e.obj)
    case "callee"  => Some(callee)
    case "future"  => Some(future)
    case "method"  => Some(method)
    case "class"   => Some(e => if (e.obj eq null) null else e.obj.cls)
    case ArgN(n) if n.length <= 3 => val i = n.toInt; Some(arg(i))
    case _         => None
  }

  /** Event kinds that `complete-on` can name. */
  val kinds: List[String] = List("Created", "CallSent", "Started", "Suspended", "Resumed", "Completed", "FutureResolved", "Get", "User")

  /**
   * A completion predicate: `Kind` (any event of that kind), `User:name` (a user event of that
   * name), or `Kind:method` / `Kind:Class.method` for the call and process events.
   */
  def completion(spec: String): Either[String, TraceEvent => Boolean] = {
    val (kind, detail) = spec.indexOf(':') match {
      case -1 => (spec, null)
      case i  => (spec.substring(0, i), spec.substring(i + 1))
    }
    def byMethod(m: String, cls: String): Boolean =
      (detail eq null) || detail == m || detail == s"$cls.$m"
    def pred(f: TraceEvent => Boolean): Either[String, TraceEvent => Boolean] = Right(f)
    kind match {
      case "Created"        => pred { case _: Created => detail eq null; case _ => false }
      case "FutureResolved" => pred { case _: FutureResolved => detail eq null; case _ => false }
      case "Get"            => pred { case _: Get => detail eq null; case _ => false }
      case "User"           => pred { case x: User => (detail eq null) || x.name == detail; case _ => false }
      case "CallSent"       => pred { case x: CallSent => byMethod(x.method, x.callee.cls); case _ => false }
      case "Started"        => pred { case x: Started => byMethod(x.method, x.obj.cls); case _ => false }
      case "Suspended"      => pred { case x: Suspended => byMethod(x.method, x.obj.cls); case _ => false }
      case "Resumed"        => pred { case x: Resumed => byMethod(x.method, x.obj.cls); case _ => false }
      case "Completed"      => pred { case x: Completed => byMethod(x.method, x.obj.cls); case _ => false }
      case other => Left(s"unknown event kind '$other'; expected ${kinds.mkString(", ")} (optionally ':name')")
    }
  }
}
