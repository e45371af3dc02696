package cogs.absc.typecheck

import cogs.absc.ast._

/**
 * A user-defined scheduler of a COG: `[Scheduler: f(queue, a, b)]` on a class, or on a statement
 * that creates an object with `new` (which overrides the class's). `f` gets the processes that may
 * run (the magic parameter `queue`) and the current values of the fields `a`, `b` of the COG's
 * first object, and returns the process to run next.
 *
 * @param args one per parameter of `function`: `None` for `queue`, else the field passed
 */
final case class SchedulerSpec(function: FunctionSym, args: List[Option[FieldSym]])

/**
 * Checks `[Scheduler: ..]` annotations (as the reference toolchain does) and records them for the
 * later phases: the annotation is a call of a function of type `(List<Process>, ..) -> Process`
 * whose first argument is `queue` and whose other arguments are fields or parameters of the class
 * whose objects the COG is made for, of types the function accepts.
 */
private[typecheck] trait SchedulerAnnotations { self: Checker =>

  /** The class's own annotation, if any. */
  def checkClassScheduler(c: ClassSym): Unit =
    schedulerAnnotation(c.decl.annotations).foreach { a =>
      resolveScheduler(a, c, c.module).foreach(tables.classSchedulers.put(c, _))
    }

  /** The annotation of a statement; after the statement was checked (its `new` resolved). */
  def checkStatementScheduler(s: Stmt, ctx: Ctx): Unit =
    schedulerAnnotation(s.annotations).foreach { a =>
      val created = s match {
        case VarDeclStmt(_, _, Some(n: NewExp), _) => Some(n)
        case AssignStmt(_, n: NewExp, _) => Some(n)
        case ExpStmt(n: NewExp, _) => Some(n)
        case _ => None
      }
      created match {
        case None =>
          warning(a.pos, "'[Scheduler: ..]' applies to classes and to statements that create an object with 'new'; it is ignored here")
        case Some(n) if n.local =>
          warning(a.pos, "'[Scheduler: ..]' is ignored on 'new local': the object joins the creator's COG, which keeps its scheduler")
        case Some(n) =>
          Option(tables.refs.get(n)).collect { case c: ClassSym => c }.foreach { c =>
            resolveScheduler(a, c, ctx.module).foreach(tables.newSchedulers.put(n, _))
          }
      }
    }

  private def schedulerAnnotation(as: List[Annotation]): Option[Annotation] =
    as.find(a => a.tag.exists(_.name == Annotations.Scheduler))

  private def resolveScheduler(a: Annotation, c: ClassSym, m: ModuleSym): Option[SchedulerSpec] = a.value match {
    case app @ FnApp(name, args) =>
      find(m, Namespace.Function, name) match {
        case Some(f: FunctionSym) => checkSpec(app, f, args, c)
        case _ =>
          error(app.pos, s"unknown scheduler function '$name'")
          None
      }
    case other =>
      error(other.pos, "a scheduler is a call of a scheduler function, as in '[Scheduler: f(queue)]'")
      None
  }

  private def checkSpec(app: FnApp, f: FunctionSym, args: List[PureExp], c: ClassSym): Option[SchedulerSpec] = {
    val processType = find(mods.byName(Prelude.SchedulerModule), Namespace.Type, QName(None, "Process")).collect {
      case d: DataTypeSym => Type.Data(d, Nil): Type
    }
    def isProcess(t: Type): Boolean = processType.contains(inf.resolve(t))
    def isQueue(t: Type): Boolean = inf.resolve(t) match {
      case b.ListT(e) => isProcess(e)
      case _ => false
    }
    var ok = true
    def fail(pos: Pos, msg: String): Unit = { error(pos, msg); ok = false }

    if (f.typeParams.nonEmpty || f.isPartial)
      fail(app.pos, s"the scheduler function '${f.name}' must not have type parameters or function parameters")
    else if (!isProcess(f.resultType) || f.paramTypes.headOption.forall(t => !isQueue(t)))
      fail(app.pos, s"'${f.name}' is not a scheduler function: its type must be (List<Process>, ..) -> Process, with Process from ABS.Scheduler")
    if (!ok) return None
    if (args.length != f.params.length) {
      fail(app.pos, s"the scheduler function '${f.name}' takes ${f.params.length} argument(s); ${args.length} given")
      return None
    }
    val resolved = args.zip(f.paramTypes).zipWithIndex.map { case ((arg, pt), i) =>
      val name = arg match {
        case VarUse(n) => Some(n)
        case FieldUse(n) => Some(n)
        case _ => None
      }
      if (i == 0) {
        if (!name.contains("queue")) fail(arg.pos, "the first argument of a scheduler is 'queue' (the processes that may run)")
        None
      } else name match {
        case None =>
          fail(arg.pos, s"argument ${i + 1} of a scheduler must name a field of class '${c.name}'")
          None
        case Some(n) =>
          c.field(n) match {
            case None =>
              fail(arg.pos, s"class '${c.name}' has no field or parameter '$n' to pass to the scheduler" +
                Suggest.hint(n, c.fields.map(_.name)))
              None
            case Some(fs) =>
              if (!inf.sub(fs.tpe, pt))
                fail(arg.pos, s"${fs.kind} '$n' has type ${show(fs.tpe)}; the scheduler's parameter needs ${show(pt)}")
              Some(fs)
          }
      }
    }
    if (ok) Some(SchedulerSpec(f, resolved)) else None
  }
}
