package cogs.absc.typecheck

import Type._

/**
 * Subtyping, joins and the inference of type arguments.
 *
 * Type arguments of parametric functions and constructors are not written in ABS; each
 * use gets fresh type variables, and every "a value of type S flows where T is expected"
 * (an argument, an assignment, a branch of a case) becomes a constraint `S <: T`. A
 * variable collects a lower bound (the join of the types flowing into it) and upper
 * bounds (the types it flows into); its solution is the lower bound, else the most
 * specific upper bound, else `Bottom` (nothing constrains it: `Nil` alone).
 *
 * `sub` both checks and records: it returns false when the constraint cannot hold.
 */
private[typecheck] final class Inference(b: Builtins) {

  import Inference.prune

  private var counter = 0

  def fresh(hint: String): Var = {
    counter += 1
    new Var(counter, hint)
  }

  /** Fresh variables for type parameters, as a substitution. */
  def instantiate(tps: List[TypeParamSym]): (List[Var], Map[TypeParamSym, Type]) = {
    val vs = tps.map(p => fresh(p.name))
    (vs, tps.zip(vs).toMap)
  }

  /**
   * The shape of `t` as far as it is known now: a variable stands for its lower bound, or
   * its first upper bound; an unconstrained variable stays itself.
   */
  def current(t: Type): Type = prune(t) match {
    case v: Var =>
      if (v.lower != null) current(v.lower)
      else if (v.uppers.nonEmpty) current(v.uppers.head)
      else v
    case other => other
  }

  // ---------------------------------------------------------------------------------
  // Subtyping

  /** Interfaces an object-like type has (for joins); empty for other types. */
  private def ifaces(t: Type): Set[InterfaceSym] = t match {
    case Iface(i) => i.allSupers
    case Obj(c) => c.allInterfaces + b.objectIface
    case _ => Set.empty
  }

  def sub(s0: Type, t0: Type): Boolean = (prune(s0), prune(t0)) match {
    case (s, t) if s eq t => true
    case (Error, _) | (_, Error) => true
    case (Bottom, _) => true
    case (x: Var, y: Var) => union(x, y)
    case (x: Var, t) => addUpper(x, t)
    case (s, y: Var) => addLower(y, s)
    case (Null, Null) => true
    case (Null, Iface(_)) | (Null, Obj(_)) => true
    // futures are references too: a Fut variable declared without a value holds null
    case (Null, Data(d, _)) if (d eq b.fut) || (d eq b.destiny) => true
    case (Data(d1, as1), Data(d2, as2)) if d1 eq d2 =>
      as1.length == as2.length && as1.zip(as2).forall { case (x, y) => sub(x, y) }
    case (Data(d1, _), Data(d2, _)) if (d1 eq b.int) && (d2 eq b.rat) => true
    case (Data(d1, List(_)), Data(d2, Nil)) if (d1 eq b.fut) && (d2 eq b.destiny) => true
    case (Iface(i), Iface(j)) => (j eq b.objectIface) || i.allSupers.contains(j)
    case (Obj(c), Iface(j)) => (j eq b.objectIface) || c.allInterfaces.contains(j)
    case (Obj(c), Obj(d)) => c eq d
    case (Param(p), Param(q)) => p eq q
    case (Fun(ps1, r1), Fun(ps2, r2)) =>
      ps1.length == ps2.length && ps2.zip(ps1).forall { case (x, y) => sub(x, y) } && sub(r1, r2)
    case _ => false
  }

  /** `sub` in one direction or the other (for equality and ordering, "compatible" types). */
  def compatible(s: Type, t: Type): Boolean = join(s, t).isDefined

  /** Are the types the same (each a subtype of the other)? Used for method signatures. */
  def same(s: Type, t: Type): Boolean = sub(s, t) && sub(t, s)

  private def occurs(v: Var, t: Type): Boolean = prune(t) match {
    case w: Var => (w eq v) || (w.lower != null && occurs(v, w.lower))
    case Data(_, as) => as.exists(occurs(v, _))
    case Fun(ps, r) => ps.exists(occurs(v, _)) || occurs(v, r)
    case _ => false
  }

  private def union(x: Var, y: Var): Boolean = {
    x.link = y
    val okLower = x.lower == null || addLower(y, x.lower)
    val okUpper = x.uppers.forall(addUpper(y, _))
    x.lower = null
    x.uppers = Nil
    okLower && okUpper
  }

  private def addUpper(x: Var, t: Type): Boolean =
    if (occurs(x, t)) false
    else {
      // Two upper bounds with the same data type (a value matched by `Nothing` and by
      // `Just(y)`): their unknown arguments must be the same, or the solution would
      // satisfy one bound but not what was learnt through the other.
      val merged = x.uppers.forall(u => (prune(u), prune(t)) match {
        case (Data(d1, as1), Data(d2, as2)) if (d1 eq d2) && as1.length == as2.length =>
          as1.zip(as2).forall { case (a, c) =>
            if (Inference.hasVar(a) || Inference.hasVar(c)) sub(a, c) && sub(c, a) else true
          }
        case _ => true
      })
      x.uppers = x.uppers :+ t
      merged && (x.lower == null || sub(x.lower, t))
    }

  private def addLower(y: Var, s: Type): Boolean =
    if (occurs(y, s)) false
    else if (y.lower == null) {
      y.lower = s
      y.uppers.forall(sub(s, _))
    } else joinNoVar(y.lower, s) match {
      case Some(j) =>
        y.lower = j
        y.uppers.forall(sub(j, _))
      case None => false
    }

  // ---------------------------------------------------------------------------------
  // Joins

  /** The least common supertype, if there is one (variables absorb the other side). */
  def join(s0: Type, t0: Type): Option[Type] = (prune(s0), prune(t0)) match {
    case (x: Var, t) => if (sub(t, x)) Some(x) else None
    case (s, y: Var) => if (sub(s, y)) Some(y) else None
    case (s, t) => joinNoVar(s, t)
  }

  private def joinNoVar(s0: Type, t0: Type): Option[Type] = (prune(s0), prune(t0)) match {
    case (s, t) if s eq t => Some(s)
    case (Error, _) | (_, Error) => Some(Error)
    case (Bottom, t) => Some(t)
    case (s, Bottom) => Some(s)
    case (x: Var, t) => if (sub(t, x)) Some(x) else None
    case (s, y: Var) => if (sub(s, y)) Some(y) else None
    case (Data(d1, as1), Data(d2, as2)) if (d1 eq d2) && as1.length == as2.length =>
      val js = as1.zip(as2).map { case (x, y) => join(x, y) }
      if (js.forall(_.isDefined)) Some(Data(d1, js.map(_.get))) else None
    case (Data(d1, _), Data(d2, _)) if (d1 eq b.int) && (d2 eq b.rat) || (d1 eq b.rat) && (d2 eq b.int) =>
      Some(b.RatT)
    case (Data(d1, _), Data(d2, _)) if (d1 eq b.fut) && (d2 eq b.destiny) || (d1 eq b.destiny) && (d2 eq b.fut) =>
      Some(b.DestinyT)
    case (Null, t @ (Iface(_) | Obj(_) | Null)) => Some(t)
    case (s @ (Iface(_) | Obj(_)), Null) => Some(s)
    case (Null, t @ Data(d, _)) if (d eq b.fut) || (d eq b.destiny) => Some(t)
    case (s @ Data(d, _), Null) if (d eq b.fut) || (d eq b.destiny) => Some(s)
    case (Obj(c), Obj(d)) if c eq d => Some(Obj(c))
    case (s @ (Iface(_) | Obj(_)), t @ (Iface(_) | Obj(_))) =>
      if (sub(s, t)) Some(t)
      else if (sub(t, s)) Some(s)
      else {
        val common = ifaces(s).intersect(ifaces(t))
        val minimal = common.filter(i => !common.exists(j => (j ne i) && j.allSupers.contains(i)))
        if (minimal.size == 1) Some(Iface(minimal.head)) else None
      }
    case (Param(p), Param(q)) if p eq q => Some(Param(p))
    case (s, t) if s == t => Some(s)
    case _ => None
  }

  // ---------------------------------------------------------------------------------
  // Solutions

  /**
   * `t` with every variable replaced by its solution (fixed from then on). With
   * `default = None`, unconstrained variables are kept (for messages during checking).
   */
  def resolve(t: Type): Type = prune(t) match {
    case v: Var =>
      val sol =
        if (v.lower != null) resolve(v.lower)
        else if (v.uppers.nonEmpty) resolve(mostSpecific(v.uppers))
        else Bottom
      v.lower = sol
      v.uppers = Nil
      sol
    case Data(d, as) => Data(d, as.map(resolve))
    case Fun(ps, r) => Fun(ps.map(resolve), resolve(r))
    case other => other
  }

  private def mostSpecific(ts: List[Type]): Type =
    ts.find(t => ts.forall(u => subNoVar(t, u))).getOrElse(ts.head)

  /** Subtyping without recording anything (for choosing among bounds). */
  private def subNoVar(s: Type, t: Type): Boolean = (prune(s), prune(t)) match {
    case (_: Var, _) | (_, _: Var) => false
    case (Data(d1, as1), Data(d2, as2)) if d1 eq d2 =>
      as1.length == as2.length && as1.zip(as2).forall { case (x, y) => subNoVar(x, y) }
    case (x, y) if !Inference.hasVar(x) && !Inference.hasVar(y) => sub(x, y)
    case _ => false
  }

  /** The unconstrained variables of `t`. */
  def freeVars(t: Type): List[Var] = prune(t) match {
    case v: Var =>
      if (v.lower != null) freeVars(v.lower)
      else if (v.uppers.nonEmpty) v.uppers.flatMap(freeVars)
      else List(v)
    case Data(_, as) => as.flatMap(freeVars).distinct
    case Fun(ps, r) => (ps.flatMap(freeVars) ++ freeVars(r)).distinct
    case _ => Nil
  }
}

private[typecheck] object Inference {

  /** Follows the links of unified variables. */
  def prune(t: Type): Type = t match {
    case v: Var if v.link != null =>
      val p = prune(v.link)
      p match {
        case pv: Var => v.link = pv
        case _ =>
      }
      p
    case other => other
  }

  def hasVar(t: Type): Boolean = prune(t) match {
    case _: Var => true
    case Data(_, as) => as.exists(hasVar)
    case Fun(ps, r) => ps.exists(hasVar) || hasVar(r)
    case _ => false
  }
}
