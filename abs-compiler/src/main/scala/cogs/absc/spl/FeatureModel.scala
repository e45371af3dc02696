package cogs.absc.spl

import scala.collection.immutable.ListMap
import scala.collection.mutable

import cogs.absc.ast._
import cogs.absc.diag.Diagnostic

/**
 * The feature model (the manual's mTVL): root features, their groups (`allof`, `oneof`,
 * `[n .. m]`, optional members), attributes with their domains, and constraints (`ifin`,
 * `ifout`, `require`, `exclude`). It answers two questions: which constraints a product
 * violates, and whether any product satisfies the model (by enumerating the selections the
 * tree allows, bounded; see [[satisfiable]]).
 *
 * The semantics: a root is always selected; a selected feature's parent is selected; a selected
 * feature's group has between `min` and `max` selected members (`allof`: every member not marked
 * `opt`); a selected feature's attributes have values in their domains; `e` and `ifin: e` hold
 * when the feature is selected, `ifout: e` when it is not; `require: G` and `exclude: G` are
 * `F -> G` and `F -> !G`.
 */
private[spl] final class FeatureModel(decls: List[FeatureModelDecl]) {

  final class Feature(val name: String, val pos: Pos, val parent: Option[String]) {
    var group: Option[FeatureGroup] = None
    var attrs: List[FeatureAttr] = Nil
    var constraints: List[FeatureConstraint] = Nil
    def children: List[(Boolean, String)] = group.toList.flatMap(_.members.map { case (o, d) => (o, d.name) })
  }

  private val errs = mutable.ListBuffer.empty[Diagnostic]
  def errors: List[Diagnostic] = errs.toList

  val features: ListMap[String, Feature] = {
    val b = mutable.LinkedHashMap.empty[String, Feature]
    def add(d: FeatureDecl, parent: Option[String]): Unit =
      if (b.contains(d.name)) errs += Diagnostic.error(d.pos, s"feature '${d.name}' is already declared at ${b(d.name).pos}")
      else {
        val f = new Feature(d.name, d.pos, parent)
        b(d.name) = f
        f.group = d.body.group
        f.attrs = d.body.attrs
        f.constraints = d.body.constraints
        d.body.group.foreach(_.members.foreach { case (_, m) => add(m, Some(d.name)) })
      }
    decls.foreach { case r: FeatureRoot => add(r.feature, None); case _ => }
    decls.foreach {
      case e: FeatureExtension => b.get(e.name) match {
        case None => errs += Diagnostic.error(e.pos, s"extension of feature '${e.name}', which the feature model does not declare")
        case Some(f) =>
          e.body.group.foreach { g =>
            if (f.group.isDefined) errs += Diagnostic.error(g.pos, s"feature '${e.name}' already has a group")
            else {
              f.group = Some(g)
              g.members.foreach { case (_, m) => add(m, Some(e.name)) }
            }
          }
          f.attrs ++= e.body.attrs
          f.constraints ++= e.body.constraints
      }
      case _ =>
    }
    ListMap.from(b)
  }

  val roots: List[String] = decls.collect { case r: FeatureRoot => r.feature.name }

  def isEmpty: Boolean = features.isEmpty

  /** `sel` with what it implies: the roots, and the parents of every selected feature (products name leaves). */
  def implied(sel: Set[String]): Set[String] = {
    def up(f: String): List[String] = f :: features.get(f).flatMap(_.parent).toList.flatMap(up)
    roots.toSet ++ sel.toList.flatMap(up)
  }

  // names used in constraints must exist
  for (f <- features.values; c <- f.constraints) c match {
    case r @ Require(g) if !features.contains(g) => errs += Diagnostic.error(r.pos, s"unknown feature '$g'")
    case r @ Exclude(g) if !features.contains(g) => errs += Diagnostic.error(r.pos, s"unknown feature '$g'")
    case IfIn(e) => checkNames(e, f)
    case IfOut(e) => checkNames(e, f)
    case _ =>
  }
  for (f <- features.values; a <- f.attrs if !Set("Int", "Bool", "String")(a.tpe))
    errs += Diagnostic.error(a.pos, s"an attribute is an Int, a Bool or a String, not '${a.tpe}'")
  for (f <- features.values; g <- f.group) g.card match {
    case Between(lo, Some(hi)) if lo > hi => errs += Diagnostic.error(g.pos, s"the group's cardinality [$lo .. $hi] is empty")
    case _ =>
  }

  private def checkNames(e: MExp, owner: Feature): Unit = e match {
    case n @ MName(x) =>
      if (x != "True" && x != "False" && !features.contains(x) && !owner.attrs.exists(_.name == x))
        errs += Diagnostic.error(n.pos, s"'$x' is neither a feature nor an attribute of feature '${owner.name}'")
    case a @ MAttr(f, x) =>
      if (!features.get(f).exists(_.attrs.exists(_.name == x)))
        errs += Diagnostic.error(a.pos, s"feature '$f' has no attribute '$x'")
    case MUnary(_, x) => checkNames(x, owner)
    case MBinary(_, l, r) => checkNames(l, owner); checkNames(r, owner)
    case _ =>
  }

  // ---------------------------------------------------------------- evaluation

  /** Attribute values: (feature, attribute) to value. */
  type Attrs = Map[(String, String), AttrValue]

  private final class Undefined(val what: String) extends Exception(what, null, false, false)

  private def eval(e: MExp, owner: Feature, sel: Set[String], attrs: Attrs): AttrValue = e match {
    case MInt(v) => IntValue(v)
    case MName("True") => BoolValue(true)
    case MName("False") => BoolValue(false)
    case MName(x) if features.contains(x) => BoolValue(sel(x))
    case MName(x) => attrs.getOrElse((owner.name, x), throw new Undefined(s"${owner.name}.$x"))
    case MAttr(f, x) => attrs.getOrElse((f, x), throw new Undefined(s"$f.$x"))
    case MUnary("!", x) => BoolValue(!bool(eval(x, owner, sel, attrs)))
    case MUnary(_, x) => IntValue(-int(eval(x, owner, sel, attrs)))
    case MBinary(op, l, r) =>
      lazy val a = eval(l, owner, sel, attrs)
      lazy val b = eval(r, owner, sel, attrs)
      op match {
        case "&&" => BoolValue(bool(a) && bool(b))
        case "||" => BoolValue(bool(a) || bool(b))
        case "->" => BoolValue(!bool(a) || bool(b))
        case "<->" => BoolValue(bool(a) == bool(b))
        case "==" => BoolValue(a == b)
        case "!=" => BoolValue(a != b)
        case "<" => BoolValue(int(a) < int(b))
        case "<=" => BoolValue(int(a) <= int(b))
        case ">" => BoolValue(int(a) > int(b))
        case ">=" => BoolValue(int(a) >= int(b))
        case "+" => IntValue(int(a) + int(b))
        case "-" => IntValue(int(a) - int(b))
        case "*" => IntValue(int(a) * int(b))
        case "/" => IntValue(if (int(b) == 0) BigInt(0) else int(a) / int(b))
        case _ => IntValue(if (int(b) == 0) BigInt(0) else int(a) % int(b))
      }
  }

  private def bool(v: AttrValue): Boolean = v match {
    case BoolValue(b) => b
    case other => throw new Undefined(s"a Boolean (found $other)")
  }
  private def int(v: AttrValue): BigInt = v match {
    case IntValue(i) => i
    case other => throw new Undefined(s"a number (found $other)")
  }

  private def show(e: MExp): String = e match {
    case MInt(v) => v.toString
    case MName(x) => x
    case MAttr(f, x) => s"$f.$x"
    case MUnary(op, x) => op + show(x)
    case MBinary(op, l, r) => s"(${show(l)} $op ${show(r)})"
  }

  /** What the selection `sel` with attribute values `attrs` violates, one message each (none: it satisfies the model). */
  def violations(sel: Set[String], attrs: Attrs): List[String] = {
    val out = mutable.ListBuffer.empty[String]
    for (r <- roots if !sel(r)) out += s"the root feature $r is not selected"
    for (f <- features.values if sel(f.name)) {
      for (p <- f.parent if !sel(p)) out += s"${f.name} is selected without its parent $p"
      for (g <- f.group) {
        val chosen = f.children.count(c => sel(c._2))
        g.card match {
          case AllOf =>
            for ((opt, c) <- f.children if !opt && !sel(c)) out += s"${f.name} needs all of its group, and $c is not selected"
          case Between(lo, hi) =>
            if (chosen < lo || hi.exists(chosen > _)) {
              val want = if (hi.contains(lo)) s"exactly $lo" else hi.fold(s"at least $lo")(h => s"from $lo to $h")
              out += s"${f.name} needs $want of ${f.children.map(_._2).mkString(", ")}; $chosen selected"
            }
        }
      }
      for (a <- f.attrs; v <- attrs.get((f.name, a.name))) {
        (a.tpe, v) match {
          case ("Int", IntValue(i)) =>
            if (a.lo.exists(i < _) || a.hi.exists(i > _))
              out += s"${f.name}.${a.name} = $i is outside [${a.lo.getOrElse("*")} .. ${a.hi.getOrElse("*")}]"
            if (a.values.exists(!_.contains(i))) out += s"${f.name}.${a.name} = $i is not one of ${a.values.get.mkString("{", ", ", "}")}"
          case ("Bool", _: BoolValue) | ("String", _: StringValue) =>
          case (t, v) => out += s"${f.name}.${a.name} is a $t, not $v"
        }
      }
    }
    for (f <- features.values; c <- f.constraints) {
      def check(e: MExp, what: String): Unit =
        try { if (!bool(eval(e, f, sel, attrs))) out += s"$what ${show(e)} of ${f.name} is false" }
        catch { case u: Undefined => out += s"$what ${show(e)} of ${f.name} needs ${u.what}, which has no value" }
      c match {
        case IfIn(e) => if (sel(f.name)) check(e, "constraint")
        case IfOut(e) => if (!sel(f.name)) check(e, "constraint ifout:")
        case Require(g) => if (sel(f.name) && !sel(g)) out += s"${f.name} requires $g, which is not selected"
        case Exclude(g) => if (sel(f.name) && sel(g)) out += s"${f.name} excludes $g, which is selected"
      }
    }
    out.toList.distinct
  }

  /** Bounds of the search: selections enumerated, attribute assignments tried per selection. */
  private val MaxSelections = 200000
  private val MaxAssignments = 20000
  private val UnboundedWindow = 64

  /** The values tried for an attribute whose product gives none, and whether that list is the whole domain. */
  private def candidates(a: FeatureAttr): (List[AttrValue], Boolean) = a.tpe match {
    case "Bool" => (List(BoolValue(false), BoolValue(true)), true)
    case "String" => (List(StringValue("")), false)
    case _ => a.values match {
      case Some(vs) => (vs.map(IntValue), true)
      case None => (a.lo, a.hi) match {
        case (Some(l), Some(h)) if h - l < MaxAssignments => ((l to h).toList.map(IntValue), true)
        case (Some(l), _) => ((l until l + UnboundedWindow).toList.map(IntValue), false)
        case (None, Some(h)) => ((h - UnboundedWindow + 1 to h).toList.map(IntValue), false)
        case (None, None) => ((-UnboundedWindow / 2 until UnboundedWindow / 2).toList.map(i => IntValue(BigInt(i))), false)
      }
    }
  }

  /**
   * Values for the attributes of selected features that `given` leaves open, such that `sel`
   * satisfies the model: Right(the completed values), or Left(the violations of the first
   * assignment tried, and whether the search was exhaustive).
   */
  def complete(sel: Set[String], given: Attrs): Either[(List[String], Boolean), Attrs] = {
    val open = for (f <- features.values.toList if sel(f.name); a <- f.attrs if !given.contains((f.name, a.name))) yield ((f.name, a.name), candidates(a))
    var exhaustive = open.forall(_._2._2)
    var tried = 0
    var first: List[String] = null
    def go(rest: List[((String, String), (List[AttrValue], Boolean))], acc: Attrs): Option[Attrs] = rest match {
      case Nil =>
        tried += 1
        val v = violations(sel, acc)
        if (first == null) first = v
        if (v.isEmpty) Some(acc) else None
      case (k, (vs, _)) :: more =>
        val it = vs.iterator
        var found: Option[Attrs] = None
        while (found.isEmpty && it.hasNext && tried < MaxAssignments) found = go(more, acc + (k -> it.next()))
        if (it.hasNext && found.isEmpty) exhaustive = false
        found
    }
    go(open, given) match {
      case Some(a) => Right(a)
      case None => Left((Option(first).getOrElse(Nil), exhaustive))
    }
  }

  /** The selections the tree allows (roots, groups, parents), lazily. */
  private def selections: Iterator[Set[String]] = {
    def of(f: String): Iterator[Set[String]] = {
      val feature = features(f)
      feature.group match {
        case None => Iterator(Set(f))
        case Some(g) =>
          val kids = feature.children
          val subsets: Iterator[List[String]] = g.card match {
            case AllOf =>
              val (opt, req) = kids.partition(_._1)
              opt.map(_._2).toSet.subsets().map(s => req.map(_._2) ++ s.toList)
            case Between(lo, hi) =>
              kids.map(_._2).toSet.subsets().filter(s => s.size >= lo && hi.forall(s.size <= _)).map(_.toList)
          }
          subsets.flatMap(chosen => product(chosen.map(of))).map(_ + f)
      }
    }
    def product(parts: List[Iterator[Set[String]]]): Iterator[Set[String]] = parts match {
      case Nil => Iterator(Set.empty)
      case p :: rest =>
        val restAll = () => product(rest)
        p.flatMap(s => restAll().map(_ ++ s))
    }
    product(roots.map(of))
  }

  /**
   * Does some selection satisfy the model? Right(a witness, its attribute values), Left(None)
   * when none does, Left(Some(why)) when the bounded search could not decide.
   */
  def satisfiable: Either[Option[String], (Set[String], Attrs)] = {
    if (roots.isEmpty) return Right((Set.empty, Map.empty))
    val it = selections
    var n = 0
    var exhaustive = true
    while (it.hasNext) {
      if (n >= MaxSelections) return Left(Some(s"more than $MaxSelections feature selections; checked the first $MaxSelections"))
      n += 1
      val sel = it.next()
      complete(sel, Map.empty) match {
        case Right(a) => return Right((sel, a))
        case Left((_, ex)) => if (!ex) exhaustive = false
      }
    }
    if (exhaustive) Left(None) else Left(Some("attributes without finite domains were searched in a window of values only"))
  }
}
