package cogs.absc.lower

import scala.collection.mutable

/**
 * Keeps the lowered program within the class-file limits of the JVM whatever the model's size,
 * as the last step of lowering. Two limits matter:
 *
 *  - the code of one method is at most 64 KB: an expression too big for one method (a sum of
 *    10,000 terms, an `if`/`let`/`case` nest 10,000 deep, a list literal of 500,000 elements) is
 *    cut into pieces, each evaluated by a helper method. The helper is a Scala function literal
 *    called at once, `(() => e)()`: scalac compiles its body to a method of its own and passes
 *    it the locals it uses, so the piece needs no knowledge of types or free variables here,
 *    and evaluation order and semantics are those of `e` (a captured `var` becomes a shared cell).
 *    A piece is typed without the expected type of its context; that is harmless for the types
 *    of generated values, which are covariant (`List`, `AbsSet`, `AbsMap`, data types), except
 *    `Fut`, whose values never come from an expression big enough to be moved out;
 *  - a string constant is at most 65,535 bytes of (modified) UTF-8: a longer string literal or
 *    template text, or the digits of a huge integer literal, becomes a `lazy val` of the module,
 *    built at run time from chunks.
 *
 * Long list, set and map literals are built in chunks (`listConcat`), and a long list or set of
 * integer constants is a module constant decoded from its digits (`intList`): scalac needs
 * seconds for the 500,000 separate expressions otherwise, the digits cost it nothing.
 *
 * Nests too deep for scalac's comfort (a `::` chain, matches inside matches) are rewritten into
 * shapes it handles in linear time; see "deep nests" below.
 *
 * Sizes are counted in IR nodes, a proxy for bytecode (5 bytes a node on average, 30 at most for
 * what this counts as one): a piece has at most [[MaxNodes]], which keeps its method far below
 * 64 KB, and the expression of one statement is moved out whole above [[MaxStatementNodes]], so
 * that a method of many statements with big expressions stays small too. Ordinary programs have
 * no expression that large and come out unchanged (the golden tests check it).
 *
 * A list of statements over [[MaxListNodes]] (a main block of 6,000 assignments) is cut into
 * parts of at most [[MaxNodes]], each a local method (`St.Part`), which scalac compiles to a
 * method of its own, passing it the locals it uses (a captured `var` becomes a shared cell). The
 * locals the list declares at its own level are declared before the first part, with the type's
 * default value, and assigned where they were declared, so that later parts and the code after
 * the list still see them; a local without a written type cannot be declared ahead, and a list
 * with one is left whole. Nested lists (a loop's body) are split the same way.
 *
 * What this does not split: an identifier too long for the JVM ([[Naming]] shortens it), and a
 * single statement list with a local of inferred type (the driver then reports the construct as
 * too large, see `TooLargeTest`).
 */
object Limits {
  val MaxNodes = 1500
  val MaxStatementNodes = 400
  /** Characters of one string constant: at most 3 bytes each in the class file's UTF-8, so below 65,535 bytes. */
  val MaxStringChars = 20000

  /**
   * `s` in pieces of at most [[MaxStringChars]], each a class-file constant (never split inside a
   * surrogate pair). The printer uses it too, for a message's method name (`AbsCall.message`).
   */
  def chunks(s: String): List[String] = {
    val b = List.newBuilder[String]
    var from = 0
    while (from < s.length) {
      var to = math.min(s.length, from + MaxStringChars)
      if (to < s.length && Character.isHighSurrogate(s.charAt(to - 1))) to -= 1
      b += s.substring(from, to)
      from = to
    }
    b.result()
  }
  /** Elements of a collection literal above which it is built in chunks. */
  val MaxElements = 500
  /** Nodes of one statement list above which it is cut into parts. */
  val MaxListNodes = 3000
  /** Length of a chain of `::` above which it is built as a list (see `flatCons`). */
  val MaxChain = 64

  def apply(p: LProgram): LProgram = {
    val modules = p.modules.map(m => new Limits().module(m))
    p.copy(modules = modules, mainModule = p.mainModule.flatMap(mm => modules.find(_.objectName == mm.objectName)))
  }
}

private final class Limits {
  import Limits._

  private val consts = mutable.ListBuffer.empty[LConst]

  private def constant(tpe: T, rhs: S): S = {
    val name = s"const$$k${consts.size + 1}"
    consts += LConst(name, tpe, rhs)
    S.Id(name)
  }

  def module(m: LModule): LModule = {
    val decls = m.decls.map(decl)
    m.copy(decls = decls ++ consts.toList)
  }

  private def decl(d: LDecl): LDecl = d match {
    case f: LFunction => f.copy(body = top(f.body))
    case c: LClass =>
      c.copy(fields = c.fields.map { case (n, t, e) => (n, t, top(e)) },
        init = c.init.map(i => LInit(i.plain.map(stats), i.suspending.map(proc))),
        recover = c.recover.map(cs => Case(cs.pat, cs.guard.map(top), stats(cs.body))),
        methods = c.methods.map(method))
    case m: LMethod => method(m)
    case m: LMain => m.copy(body = proc(m.body))
    case other => other
  }

  private def method(m: LMethod): LMethod =
    m.copy(plain = m.plain.map { case (ss, v) => (stats(ss), top(v)) }, cps = m.cps.map(proc))

  // ------------------------------------------------------------------ statements and computations

  private def stats(ss: List[St]): List[St] = split(ss.map(stat))

  private var parts = 0

  /** `ss` cut into parts if it is too long for one method (see the class comment). */
  private def split(ss: List[St]): List[St] = {
    // Counted up to a bound only: nested lists are visited at every level of their nesting.
    val sizes = ss.map(s => nodes(s, MaxNodes + 1))
    val hoistable = ss.forall {
      case St.Def(_, None, _, _) => false
      case _ => true
    }
    if (sizes.iterator.map(_.toLong).sum <= MaxListNodes || !hoistable) ss
    else {
      val declared = ss.collect { case St.Def(n, Some(t), _, _) =>
        St.Def(n, Some(t), S.TypeApp(S.Sel(S.Lit("null"), "asInstanceOf"), List(t)), mutable = true)
      }
      val assigned = ss.map {
        case St.Def(n, Some(_), rhs, _) => St.Assign(S.Id(n), rhs)
        case other => other
      }
      val groups = mutable.ListBuffer.empty[List[St]]
      var current = mutable.ListBuffer.empty[St]
      var size = 0
      assigned.zip(sizes).foreach { case (s, n) =>
        if (size + n > MaxNodes && current.nonEmpty) { groups += current.toList; current = mutable.ListBuffer.empty; size = 0 }
        current += s
        size += n
      }
      if (current.nonEmpty) groups += current.toList
      declared ++ groups.toList.map { g => parts += 1; St.Part(s"part$$$parts", g) }
    }
  }

  /** Size in IR nodes of anything in the IR (a proxy for its bytecode), or some number over `bound`. */
  private def nodes(x: Any, bound: Int): Int = x match {
    case p: Product =>
      var n = 1
      val it = p.productIterator
      while (n <= bound && it.hasNext) n += nodes(it.next(), bound - n)
      n
    case _ => 0
  }

  private def stat(s: St): St = s match {
    case St.Def(n, t, rhs, m) => St.Def(n, t, top(rhs), m)
    case St.Assign(l, r) => St.Assign(l, top(r))
    case St.Eval(e) => St.Eval(top(e))
    case St.If(c, t, e) => St.If(top(c), stats(t), stats(e))
    case St.While(c, b) => St.While(top(c), stats(b))
    case St.Foreach(l, x, i, b) => St.Foreach(top(l), x, i, stats(b))
    case St.Match(sc, cs) => St.Match(top(sc), cs.map(c => Case(c.pat, c.guard.map(top), stats(c.body))))
    case St.Try(b, h, f) => St.Try(stats(b), h.map { case (n, hs) => (n, stats(hs)) }, stats(f))
    case St.Block(ss) => St.Block(stats(ss))
    case c: St.Comment => c
    case l: St.Line => l
    case St.Part(n, ss) => St.Part(n, stats(ss))
  }

  private def proc(p: P): P = p match {
    case P.Done(v) => P.Done(top(v))
    case P.Then(ss, next) => P.Then(stats(ss), proc(next))
    case P.Bind(f, b, r) => P.Bind(proc(f), b, proc(r))
    case P.Map(f, b, v) => P.Map(proc(f), b, top(v))
    case P.Void(f) => P.Void(proc(f))
    case P.Await(g) => P.Await(guard(g))
    case P.AwaitValue(f) => P.AwaitValue(top(f))
    case P.Suspend => P.Suspend
    case P.Get(f, at) => P.Get(top(f), at)
    case P.Call(e) => P.Call(top(e))
    case P.SelfCall(m, args) => P.SelfCall(m, args.map(top))
    case x: P.Sync => throw Instrument.notInstrumented(x)
    case P.If(c, t, e) => P.If(top(c), proc(t), proc(e))
    case P.While(c, b) => P.While(top(c), proc(b))
    case P.Foreach(l, x, i, b) => P.Foreach(top(l), x, i, proc(b))
    case P.Match(sc, cs) => P.Match(top(sc), cs.map(c => Case(c.pat, c.guard.map(top), proc(c.body))))
    case P.Try(b, h, f) => P.Try(proc(b), h.map { case (n, hp) => (n, proc(hp)) }, f.map(proc))
    case P.Raise(e) => P.Raise(top(e))
  }

  private def guard(g: G): G = g match {
    case G.Claim(f) => G.Claim(top(f))
    case G.Cond(at, c) => G.Cond(at, top(c))
    case G.And(l, r) => G.And(guard(l), guard(r))
  }

  // ------------------------------------------------------------------ expressions

  /** The whole expression of a statement: split, and moved out whole if it is still big. */
  private def top(e: S): S = {
    val (x, n) = exp(e)
    if (n > MaxStatementNodes && movable(x)) thunk(x) else x
  }

  /** `(() => e)()`: `e` in a method of its own. */
  private def thunk(e: S): S = S.App(S.Lambda(Nil, e), Nil, Nil)

  /** Can `e` be evaluated in a function literal of its own? Not a function literal (its parameter types may come from the context). */
  private def movable(e: S): Boolean = e match {
    case _: S.Lambda => false
    case S.App(S.Lambda(Nil, _), Nil, Nil) => false // already a piece
    case _ => true
  }

  /**
   * `e` with its pieces cut out, and its size in nodes. The children are done first; if the node
   * is then over [[MaxNodes]], its biggest movable children become pieces until it is not.
   * Only value positions are moved: never a function position (`f` in `f(x)`, `x.m` in `x.m(y)`).
   */
  private def exp(e: S): (S, Int) = e match {
    case _: S.Lit | _: S.Id => (e, 1)
    case S.Str(s) if s.length > MaxStringChars => (constant(T.Ref("String"), strJoin(s)), 1)
    case _: S.Str => (e, 1)
    case S.App(S.Id("AbsInt"), Nil, List(S.Str(d))) if d.length > MaxStringChars =>
      (constant(T.Ref("AbsInt"), S.App(S.Id("AbsInt"), Nil, List(strJoin(d)))), 1)
    case S.App(f @ S.Id("list" | "set" | "map"), ts, as) if as.length > MaxElements => collection(f.name, ts, as)
    case S.Infix(_, "::", _) if consLength(e) > MaxChain => exp(flatCons(e))
    case S.Match(_, cases) if simplePatterns(cases) && nodes(e, MaxNodes + 1) > MaxNodes => exp(ifChain(e.asInstanceOf[S.Match]))
    case S.Sel(q, n) => one(q)(S.Sel(_, n))
    case S.App(f, ts, as) =>
      val (f1, nf) = function(f)
      many(as, nf)(S.App(f1, ts, _))
    case S.TypeApp(f, ts) => val (f1, nf) = function(f); (S.TypeApp(f1, ts), nf + 1)
    case S.Infix(l, op, r) => many(List(l, r))(xs => S.Infix(xs(0), op, xs(1)))
    case S.Prefix(op, x) => one(x)(S.Prefix(op, _))
    case S.Lambda(ps, b) => val (b1, n) = exp(b); (S.Lambda(ps, if (n > MaxNodes) thunk(b1) else b1), 2)
    case S.Block(ss, r) =>
      // The statements of a let: their right-hand sides are values; the block's own size is theirs.
      val defs = ss.map {
        case St.Def(n, t, rhs, m) => val (x, k) = exp(rhs); (k + 1, (y: S) => St.Def(n, t, y, m), x)
        case St.Eval(x0) => val (x, k) = exp(x0); (k + 1, (y: S) => St.Eval(y), x)
        case other => (1, (_: S) => other, S.Unit)
      }
      val (r1, nr) = exp(r)
      val parts = defs.map(d => (d._3, d._1 - 1)) :+ ((r1, nr))
      val (xs, total) = shrink(parts, defs.length)
      val stats1 = defs.zip(xs).map { case (d, x) => d._2(x) }
      (S.Block(stats1, xs.last), total)
    case S.If(c, t, f) => many(List(c, t, f))(xs => S.If(xs(0), xs(1), xs(2)))
    case S.Match(sc, cs) =>
      val (sc1, nsc) = exp(sc)
      val pats = cs.map(c => 4 * patSize(c.pat)).sum
      val guards = cs.map(c => c.guard.map(exp))
      val bodies = cs.map(c => exp(c.body))
      val parts = ((sc1, nsc) :: guards.flatten) ++ bodies
      val (xs, total) = shrink(parts, pats + 1)
      var rest = xs.tail
      val cases = cs.zip(guards).map { case (c, g) =>
        val g1 = g.map { _ => val h = rest.head; rest = rest.tail; h }
        (c, g1)
      }.map { case (c, g1) => val b = rest.head; rest = rest.tail; Case(c.pat, g1, b) }
      (S.Match(xs.head, cases), total)
    case S.Ascribe(x, t) => one(x)(S.Ascribe(_, t))
    case S.New(c, as) => many(as)(S.New(c, _))
    case S.Throw(x) => one(x)(S.Throw(_))
    case S.Catch(b, n, h) => many(List(b, h))(xs => S.Catch(xs(0), n, xs(1)))
    case S.Proc(p) => (S.Proc(proc(p)), 8) // its continuations are function literals already
    case x @ (_: S.Send | _: S.SendWithDeadline | _: S.Created | _: S.SyncNow) => throw Instrument.notInstrumented(x)
  }

  // ------------------------------------------------------------------ deep nests
  //
  // Cutting pieces out keeps each method small, but a nest 10,000 deep is still one tree to
  // scalac, and some of its work is quadratic in the depth: inferring the element type of each
  // `::` substitutes it through the whole list built so far, and the pattern matcher visits the
  // whole body of every case (to substitute the case's binders) even when it holds further
  // matches. The two rewrites below give the same values in the same evaluation order, in a
  // shape whose cost grows linearly; they apply only to nests too big for one method, so that
  // ordinary programs keep their plain form.

  /** The number of `::` in the spine of a right-nested `h1 :: h2 :: .. :: t`. */
  private def consLength(e: S): Int = {
    var n = 0
    var x = e
    while (x match { case S.Infix(_, "::", t) => n += 1; x = t; true; case _ => false }) ()
    n
  }

  /**
   * `h1 :: .. :: hn :: t` as `list(h1, .., hn) ::: t` (just the list when `t` is `Nil`): the
   * heads are evaluated first and in order, then `t`, as before (a right-associative operator's
   * left operand is evaluated first), and a long `list(..)` is built in chunks by [[collection]].
   */
  private def flatCons(e: S): S = {
    val heads = List.newBuilder[S]
    var x = e
    while (x match { case S.Infix(h, "::", t) => heads += h; x = t; true; case _ => false }) ()
    val prefix = S.App(S.Id("list"), Nil, heads.result())
    x match {
      case S.Id("Nil") => prefix
      case tail => S.Infix(prefix, ":::", tail)
    }
  }

  /** Cases whose patterns test nothing but equality to a constant, so that a chain of `if`s can decide them. */
  private def simplePatterns(cases: List[Case[S]]): Boolean =
    cases.forall(c => c.pat match {
      case Pat.Wild | _: Pat.Bind | _: Pat.Const => true
      case _ => false
    }) && cases.exists(c => c.guard.isEmpty && (c.pat match { case Pat.Wild | _: Pat.Bind => true; case _ => false }))

  private var scrutinees = 0

  /**
   * `sc match { case p if g => b; .. }` with constant, binder and wildcard patterns as
   * `{ val s = sc; if (..) b else .. }`: the same tests in the same order (a constant pattern is
   * Scala's `==`; a guard is evaluated only when its pattern matched), ending at the first case
   * that always matches (lowering always ends a match with one, its `matchFail`).
   */
  private def ifChain(m: S.Match): S = {
    scrutinees += 1
    val s = s"scrutinee$$k$scrutinees"
    def chain(cases: List[Case[S]]): S = cases match {
      case Nil => throw new IllegalStateException("ifChain: no case always matches") // simplePatterns checked one does
      case c :: rest =>
        val test = c.pat match {
          case Pat.Const(text) => Some(S.Infix(S.Id(s), "==", S.Lit(text)))
          case _ => None
        }
        val bind = c.pat match {
          case Pat.Bind(v) => List(St.Def(v, None, S.Id(s), mutable = false))
          case _ => Nil
        }
        def bound(x: S): S = if (bind.isEmpty) x else S.Block(bind, x)
        (test, c.guard) match {
          case (None, None) => bound(c.body)
          case (Some(t), None) => S.If(t, c.body, chain(rest))
          case (None, Some(g)) => bound(S.If(g, c.body, chain(rest)))
          case (Some(t), Some(g)) => S.If(S.Infix(t, "&&", g), c.body, chain(rest))
        }
    }
    S.Block(List(St.Def(s, None, m.scrutinee, mutable = false)), chain(m.cases))
  }

  /** A function position: its qualifier may be moved, never the selection itself. */
  private def function(f: S): (S, Int) = f match {
    case S.Sel(q, n) => one(q)(S.Sel(_, n))
    case S.Lambda(ps, b) => exp(f)
    case _ => exp(f)
  }

  private def one(x: S)(rebuild: S => S): (S, Int) = many(List(x))(xs => rebuild(xs.head))

  private def many(xs: List[S], extra: Int = 1)(rebuild: List[S] => S): (S, Int) = {
    val (ys, total) = shrink(xs.map(exp), extra)
    (rebuild(ys), total)
  }

  /** Children with their sizes; the biggest become pieces until `own` plus theirs is at most [[MaxNodes]]. */
  private def shrink(parts: List[(S, Int)], own: Int): (List[S], Int) = {
    var total = own + parts.map(_._2).sum
    if (total <= MaxNodes) return (parts.map(_._1), total)
    val arr = parts.toArray
    val bySize = arr.indices.sortBy(i => -arr(i)._2)
    val it = bySize.iterator
    while (total > MaxNodes && it.hasNext) {
      val i = it.next()
      val (x, n) = arr(i)
      if (n > 2 && movable(x)) { arr(i) = (thunk(x), 2); total -= n - 2 }
    }
    (arr.toList.map(_._1), total)
  }

  private def patSize(p: Pat): Int = p match {
    case Pat.Extract(_, as) => 1 + as.map(patSize).sum
    case Pat.Cons(h, t) => 1 + patSize(h) + patSize(t)
    case _ => 1
  }

  // ------------------------------------------------------------------ constants and collections

  /** A long string as chunks joined at run time. */
  private def strJoin(s: String): S = S.App(S.Id("strJoin"), Nil, Limits.chunks(s).map(S.Str))


  private val IntText = """AbsInt\((-?\d+)L?\)""".r

  /** The decimal digits of an integer constant, if `e` is one. */
  private def intConstant(e: S): Option[String] = e match {
    case S.Lit(IntText(d)) => Some(d)
    case S.App(S.Id("AbsInt"), Nil, List(S.Str(d))) => Some(d)
    case S.Prefix("-", x) => intConstant(x).map(d => if (d.startsWith("-")) d.tail else "-" + d)
    case _ => None
  }

  /**
   * `list[..]`, `set[..]` or `map[..]` with more than [[MaxElements]] elements: integer constants
   * as a module constant of digits, anything else as chunks, each a piece of its own, in order.
   */
  private def collection(kind: String, ts: List[T], as: List[S]): (S, Int) = {
    val ints = if (kind == "map") None else {
      val ds = as.map(intConstant)
      if (ds.forall(_.isDefined)) Some(ds.flatten) else None
    }
    val elems = ints match {
      case Some(ds) =>
        val digits = ds.mkString(",")
        val text = if (digits.length > MaxStringChars) strJoin(digits) else S.Str(digits)
        constant(T.Ref("List", List(T.Ref("AbsInt"))), S.App(S.Id("intList"), Nil, List(text)))
      case None =>
        val chunks = as.grouped(MaxElements).map { g =>
          val (x, _) = exp(S.App(S.Id("list"), ts, g))
          thunk(x)
        }.toList
        S.App(S.Id("listConcat"), Nil, chunks)
    }
    val whole = kind match {
      case "list" => elems
      case "set" => S.App(S.Id("setFromList"), Nil, List(elems))
      case _ => S.App(S.Id("mapFromList"), Nil, List(elems))
    }
    (whole, 2 + as.length / MaxElements)
  }
}
