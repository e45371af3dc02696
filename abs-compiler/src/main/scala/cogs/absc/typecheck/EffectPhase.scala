package cogs.absc.typecheck

import scala.collection.mutable

import cogs.absc.ast._

/**
 * Phase 4: which code may reach a scheduling point.
 *
 * A statement may suspend if it contains `await` (a statement or an `await o!m(..)`
 * expression), `suspend`, `.get` (it may block the COG, which Cogs turns into waiting),
 * or a synchronous call that may suspend. A synchronous call on `this` runs the callee
 * in the same process, so it may suspend iff the callee may (a least fixpoint over the
 * call graph); a synchronous call through an interface may reach another COG, where it
 * means "call, then get", so it may always suspend.
 *
 * Also checked here, since they need those facts: init blocks, recovery blocks and
 * finally blocks must not make synchronous calls that may suspend (only calls of this
 * object's methods that never suspend, or of interface methods declared [Atomic], are
 * allowed there), and a method declared [Atomic] must not suspend.
 *
 * Last, which code must become a continuation: code that may suspend, and code that calls a
 * method of its own object that lies on a cycle of synchronous calls on `this` (even if the
 * cycle never suspends), so that deep recursion lives on the process's heap stack instead of
 * the JVM stack (a million nested calls run). This is the only place that decides it.
 *
 * And, from those facts, which synchronous calls are plain Scala calls: a call on `this` whose
 * callee needs no continuation runs to its end without a scheduling point on the caller's JVM
 * stack, so it is compiled as one JVM call of the callee's value-returning form (`m$now`), with
 * no `Proc` node. A call through an interface never is: its object may be of another COG, where
 * the call waits for the callee like a `.get`, and even when every implementing class's method is
 * plain that wait is a scheduling point of the caller (only the object's COG at run time tells).
 * A direct call that a monitor configuration maps to a session protocol message is compiled
 * through its check all the same, run at once (`LowerExp.syncCallNow`): the facts here stay true.
 *
 * And which synchronous calls on `this` of a method compiled as a continuation call its frame
 * form `m$body`, its body without the handler that records an uncaught failure on the object
 * (`recover$`): a call made outside any try, as a step of a method's continuation, in a class
 * without a `recover` block. There the callee's failure goes on to the caller's own handler, of
 * the same object, with nothing between that could catch it; `recover$` of a class without a
 * `recover` block records only the first failure, so recording it once, in the caller, is the
 * same, and the per-frame `recoverWith` (a node, a closure and an interpreter step per call) is
 * paid once per process instead of once per frame. Inside a try the callee's failure must reach
 * its own handler first; a class with a `recover` block runs its branches once for each method
 * the failure leaves. A method gets the frame form when some call uses it. (A call that a
 * monitor configuration maps to a session message is compiled through its check instead, and
 * then does not use the frame form it was given.)
 */
private[typecheck] trait EffectPhase { self: Checker =>

  def checkEffects(): Unit = {
    val methods = for {
      m <- mods.modules
      c <- m.classes
      ms <- c.methods.values if ms.decl.isDefined
    } yield ms

    // least fixpoint: start from "nothing suspends", add methods until stable
    val suspends = mutable.Set.empty[MethodSym]
    var changed = true
    while (changed) {
      changed = false
      for (m <- methods if !suspends(m) && walk(m.decl.get.body, suspends, record = false)) {
        suspends += m
        changed = true
      }
    }

    for (m <- methods) {
      tables.methodSuspends.put(m, suspends(m))
      walk(m.decl.get.body, suspends, record = true)
    }
    for (m <- mods.modules; c <- m.classes) {
      c.init.foreach(walk(_, suspends, record = true))
      c.recover.foreach(br => walk(br.body, suspends, record = true))
    }
    for (m <- mods.modules; main <- m.decl.main) walk(main, suspends, record = true)

    recordContinuations(methods, suspends)

    // restricted blocks: no synchronous call that may suspend
    for (m <- mods.modules; c <- m.classes) {
      c.init.foreach(restrictCalls(_, "an init block", suspends))
      c.recover.foreach(br => restrictCalls(br.body, "a recovery block", suspends))
    }
    val bodies = methods.map(_.decl.get.body) ++ mods.modules.flatMap(_.decl.main) ++
      mods.modules.flatMap(_.classes).flatMap(c => c.init.toList ++ c.recover.map(_.body))
    for (body <- bodies; f <- finallyBlocks(body)) restrictCalls(f, "a finally block", suspends)

    // [Atomic] methods
    for (m <- methods if m.isAtomic && atomicViolation(m.decl.get.body, suspends))
      error(m.pos, s"method '${m.name}' is declared [Atomic] but may suspend")
  }

  private def callSuspends(c: SyncCall, suspends: collection.Set[MethodSym]): Boolean = tables.refs.get(c) match {
    case m: MethodSym =>
      m.owner match {
        case _: ClassSym => suspends(m)
        case _ => true
      }
    case _ => true
  }

  private def expSuspends(e: Exp, suspends: collection.Set[MethodSym], record: Boolean): Boolean = e match {
    case _: AwaitExp | _: GetExp => true
    case c: SyncCall =>
      val r = callSuspends(c, suspends)
      if (record) tables.maySuspend.put(c, r)
      r
    case _ => false
  }

  /** May the statement suspend? Visits every sub-statement (recording each result if asked). */
  private def walk(s: Stmt, suspends: collection.Set[MethodSym], record: Boolean): Boolean = {
    def w(x: Stmt): Boolean = walk(x, suspends, record)
    def e(x: Exp): Boolean = expSuspends(x, suspends, record)
    def all(bs: List[Boolean]): Boolean = bs.exists(identity)
    // `[Cost: c]` and `[DataSize: s]` may block the COG until resources refill: a scheduling point before the statement.
    val r = tables.costs.containsKey(s) | tables.dataSizes.containsKey(s) | (s match {
      case Block(ss, _) => all(ss.map(w))
      case _: SuspendStmt | _: AwaitStmt | _: DurationStmt => true
      case VarDeclStmt(_, _, init, _) => init.exists(e)
      case AssignStmt(_, v, _) => e(v)
      case ExpStmt(x, _) => e(x)
      case ReturnStmt(x, _) => e(x)
      case IfStmt(_, t, f, _) => all(w(t) :: f.map(w).toList)
      case WhileStmt(_, body, _) => w(body)
      case ForeachStmt(_, _, _, body, _) => w(body)
      case SwitchStmt(_, bs, _) => all(bs.map(br => w(br.body)))
      case TryCatchStmt(body, cs, f, _) => all(w(body) :: cs.map(br => w(br.body)) ++ f.map(w).toList)
      case _ => false
    })
    if (record) tables.maySuspend.put(s, r)
    r
  }

  /** Methods on a cycle of synchronous calls on `this`, then the continuation facts of every body. */
  private def recordContinuations(methods: List[MethodSym], suspends: collection.Set[MethodSym]): Unit = {
    def thisCallees(s: Stmt): List[MethodSym] = syncCalls(s).collect {
      case c @ SyncCall(ThisExp(), _, _) if tables.refs.get(c).isInstanceOf[MethodSym] => tables.refs.get(c).asInstanceOf[MethodSym]
    }
    val calls: Map[MethodSym, List[MethodSym]] = methods.map(m => m -> thisCallees(m.decl.get.body)).toMap
    // Tarjan would be linear; a search per method is enough for the sizes of real classes and keeps this obvious.
    def onCycle(m: MethodSym): Boolean = {
      val seen = mutable.Set.empty[MethodSym]
      var stack = calls.getOrElse(m, Nil)
      var found = false
      while (stack.nonEmpty && !found) {
        val n = stack.head
        stack = stack.tail
        if (n eq m) found = true
        else if (seen.add(n)) stack = calls.getOrElse(n, Nil) ::: stack
      }
      found
    }
    val cyclic = methods.filter(onCycle).toSet

    val plainThisCalls = mutable.ListBuffer.empty[(SyncCall, MethodSym)]
    def callNeeds(c: SyncCall): Boolean = {
      val r = Option(tables.maySuspend.get(c)).exists(_.booleanValue) || (c.target match {
        case ThisExp() => tables.refs.get(c) match { case m: MethodSym => cyclic(m); case _ => false }
        case _ => false
      })
      tables.needsContinuation.put(c, r)
      if (!r) (c.target, tables.refs.get(c)) match {
        case (ThisExp(), m: MethodSym) if m.owner.isInstanceOf[ClassSym] => plainThisCalls += ((c, m))
        case _ =>
      }
      r
    }
    def stmt(s: Stmt): Boolean = {
      val subs = s match {
        case Block(ss, _) => ss.map(stmt)
        case IfStmt(_, t, f, _) => stmt(t) :: f.map(stmt).toList
        case WhileStmt(_, body, _) => List(stmt(body))
        case ForeachStmt(_, _, _, body, _) => List(stmt(body))
        case SwitchStmt(_, bs, _) => bs.map(br => stmt(br.body))
        case TryCatchStmt(body, cs, f, _) => stmt(body) :: cs.map(br => stmt(br.body)) ++ f.map(stmt).toList
        case VarDeclStmt(_, _, Some(c: SyncCall), _) => List(callNeeds(c))
        case AssignStmt(_, c: SyncCall, _) => List(callNeeds(c))
        case ExpStmt(c: SyncCall, _) => List(callNeeds(c))
        case ReturnStmt(c: SyncCall, _) => List(callNeeds(c))
        case _ => Nil
      }
      val r = Option(tables.maySuspend.get(s)).exists(_.booleanValue) || subs.contains(true)
      tables.needsContinuation.put(s, r)
      r
    }
    for (m <- methods) {
      val body = stmt(m.decl.get.body)
      // A method of a [Foreign] class is compiled as a continuation, with no direct form: a foreign
      // implementation bound at run time may replace its body (see Lower.foreign).
      val foreign = m.owner match { case c: ClassSym => c.isForeign; case _ => false }
      tables.methodNeedsContinuation.put(m, suspends(m) || body || foreign)
    }
    for (m <- mods.modules; c <- m.classes) {
      c.init.foreach(stmt)
      c.recover.foreach(br => stmt(br.body))
    }
    for (m <- mods.modules; main <- m.decl.main) stmt(main)

    // A callee that does not suspend may still need a continuation (it calls a method on a cycle
    // of calls on `this`); such a call stays `Proc.now(this.m(..))`, which runs the callee's steps.
    for ((c, m) <- plainThisCalls if tables.methodNeedsContinuation.get(m) == java.lang.Boolean.FALSE) {
      tables.directCalls.put(c, true)
      tables.directCallees.put(m, true)
    }

    for (m <- methods; c <- m.ownerClass if c.recover.isEmpty) recordFrameCalls(m.decl.get.body)
  }

  /**
   * The frame calls of a method body (see the class comment): the statements of its continuation
   * outside any try whose whole expression is a synchronous call on `this` of a method compiled
   * as a continuation (lowering makes each such statement a step of the continuation, the call a
   * plain `this.m(..)`).
   */
  private def recordFrameCalls(s: Stmt): Unit = s match {
    case Block(ss, _) => ss.foreach(recordFrameCalls)
    case IfStmt(_, t, f, _) => recordFrameCalls(t); f.foreach(recordFrameCalls)
    case WhileStmt(_, body, _) => recordFrameCalls(body)
    case ForeachStmt(_, _, _, body, _) => recordFrameCalls(body)
    case SwitchStmt(_, bs, _) => bs.foreach(br => recordFrameCalls(br.body))
    case _: TryCatchStmt => // a try keeps its callees' handlers
    case _ if Option(tables.needsContinuation.get(s)).exists(_.booleanValue) =>
      val call = s match {
        case VarDeclStmt(_, _, Some(c: SyncCall), _) => Some(c)
        case AssignStmt(_, c: SyncCall, _) => Some(c)
        case ExpStmt(c: SyncCall, _) => Some(c)
        case ReturnStmt(c: SyncCall, _) => Some(c)
        case _ => None
      }
      for (c @ SyncCall(ThisExp(), _, _) <- call) tables.refs.get(c) match {
        case m: MethodSym if m.owner.isInstanceOf[ClassSym] && tables.methodNeedsContinuation.get(m) == java.lang.Boolean.TRUE =>
          tables.frameCalls.put(c, true)
          tables.frameCallees.put(m, true)
        case _ =>
      }
    case _ =>
  }

  private def syncCalls(s: Stmt): List[SyncCall] = {
    def exp(e: Exp): List[SyncCall] = e match {
      case c: SyncCall => List(c)
      case _ => Nil
    }
    s match {
      case Block(ss, _) => ss.flatMap(syncCalls)
      case VarDeclStmt(_, _, init, _) => init.toList.flatMap(exp)
      case AssignStmt(_, v, _) => exp(v)
      case ExpStmt(x, _) => exp(x)
      case ReturnStmt(x, _) => exp(x)
      case IfStmt(_, t, f, _) => syncCalls(t) ++ f.toList.flatMap(syncCalls)
      case WhileStmt(_, body, _) => syncCalls(body)
      case ForeachStmt(_, _, _, body, _) => syncCalls(body)
      case SwitchStmt(_, bs, _) => bs.flatMap(br => syncCalls(br.body))
      case TryCatchStmt(body, cs, f, _) => syncCalls(body) ++ cs.flatMap(br => syncCalls(br.body)) ++ f.toList.flatMap(syncCalls)
      case _ => Nil
    }
  }

  private def finallyBlocks(s: Stmt): List[Stmt] = s match {
    case Block(ss, _) => ss.flatMap(finallyBlocks)
    case IfStmt(_, t, f, _) => finallyBlocks(t) ++ f.toList.flatMap(finallyBlocks)
    case WhileStmt(_, body, _) => finallyBlocks(body)
    case ForeachStmt(_, _, _, body, _) => finallyBlocks(body)
    case SwitchStmt(_, bs, _) => bs.flatMap(br => finallyBlocks(br.body))
    case TryCatchStmt(body, cs, f, _) =>
      finallyBlocks(body) ++ cs.flatMap(br => finallyBlocks(br.body)) ++ f.toList
    case _ => Nil
  }

  private def restrictCalls(s: Stmt, where: String, suspends: collection.Set[MethodSym]): Unit =
    for (c <- syncCalls(s)) tables.refs.get(c) match {
      case m: MethodSym =>
        m.owner match {
          case _: ClassSym if suspends(m) =>
            error(c.pos, s"synchronous call of '${m.name}' is not allowed in $where: '${m.name}' may suspend")
          case i: InterfaceSym if !m.isAtomic =>
            error(c.pos, s"synchronous call of '${m.name}' through interface '${i.name}' is not allowed in $where: " +
              "it may wait for another COG; only interface methods declared [Atomic] can be called here")
          case _ =>
        }
      case _ =>
    }

  /** Suspension points an [Atomic] method may not have: await, suspend, get, and calls of this object's suspending methods. */
  private def atomicViolation(s: Stmt, suspends: collection.Set[MethodSym]): Boolean = {
    def exp(e: Exp): Boolean = e match {
      case _: AwaitExp | _: GetExp => true
      case c: SyncCall => tables.refs.get(c) match {
        case m: MethodSym => m.owner.isInstanceOf[ClassSym] && suspends(m)
        case _ => false
      }
      case _ => false
    }
    def go(s: Stmt): Boolean = tables.costs.containsKey(s) || tables.dataSizes.containsKey(s) || (s match {
      case Block(ss, _) => ss.exists(go)
      case _: SuspendStmt | _: AwaitStmt | _: DurationStmt => true
      case VarDeclStmt(_, _, init, _) => init.exists(exp)
      case AssignStmt(_, v, _) => exp(v)
      case ExpStmt(x, _) => exp(x)
      case ReturnStmt(x, _) => exp(x)
      case IfStmt(_, t, f, _) => go(t) || f.exists(go)
      case WhileStmt(_, body, _) => go(body)
      case ForeachStmt(_, _, _, body, _) => go(body)
      case SwitchStmt(_, bs, _) => bs.exists(br => go(br.body))
      case TryCatchStmt(body, cs, f, _) => go(body) || cs.exists(br => go(br.body)) || f.exists(go)
      case _ => false
    })
    go(s)
  }
}
