package cogs.runtime

/**
 * The interface side of an active object. Scala traits and Java interfaces that describe active
 * objects extend it, so that a reference typed by the interface can be called asynchronously.
 */
trait Active {
  /** The COG the object belongs to. */
  private[runtime] def cog: Cog

  /** The object's identity in traces and its tracer, or null when it is not traced. */
  private[runtime] def traceSlot: TraceSlot
}

/**
 * Base class of active objects. Create instances with `runtime.spawn(new C(..))` (new COG) or,
 * inside a process or a constructor, `Cogs.spawn(new C(..))` / `Cogs.spawnLocal(new C(..))` (the
 * creator's COG: in a constructor, that of the object being constructed).
 *
 * The constructor is the ABS init block. Override [[run]] to give the object an active behaviour:
 * it is started as the object's first process right after creation.
 */
abstract class ActiveObject extends Active {
  private[runtime] final val cog: Cog = {
    val c = CogRuntime.Placement.get()
    if (c eq null)
      throw new IllegalStateException(
        s"${getClass.getName} is an active object: create it with runtime.spawn(new ...), Cogs.spawn or Cogs.spawnLocal")
    // Taken once: an unplaced `new` nested in this constructor must not silently join this COG.
    CogRuntime.Placement.set(null)
    // The rest of the constructor (the init block) creates objects as this object (see Constructing).
    CogRuntime.Constructing.set(c)
    if (c.owner eq null) c.owner = this
    c
  }

  // Set at creation when the runtime traces this object's class; null otherwise.
  private[this] var traceSlot$ : TraceSlot = _
  private[runtime] final def traceSlot: TraceSlot = traceSlot$
  private[runtime] final def traceSlot_=(r: TraceSlot): Unit = traceSlot$ = r

  /**
   * The class name that traces, monitors and their configuration use (`observe.classes`). The
   * simple class name by default; code generated from ABS returns the ABS class name.
   */
  def traceName: String = getClass.getSimpleName

  /**
   * Where the object was created (`f.abs:12:5` in code generated from ABS, which overrides this),
   * or null. When known, reports name the object's processes by class and site,
   * `NodeImpl.m (object created at f.abs:12:5)`, rather than by `toString`.
   */
  def creationSite: String = null

  /** The object's active behaviour (ABS `run`), started after creation if overridden. */
  def run(): Proc[Unit] = Proc.unit

  /** The runtime this object lives in. */
  protected final def runtime: CogRuntime = cog.runtime
}

private[runtime] object ActiveObject {
  private val hasRun = new ClassValue[java.lang.Boolean] {
    def computeValue(c: Class[_]): java.lang.Boolean =
      c.getMethod("run").getDeclaringClass != classOf[ActiveObject]
  }

  def startRun(o: ActiveObject): Unit =
    // Nobody can hold the future of `run`: a one-way call.
    if (hasRun.get(o.getClass)) o.runtime.tellArgs[ActiveObject](o, "run", Nil, _.run())
}
