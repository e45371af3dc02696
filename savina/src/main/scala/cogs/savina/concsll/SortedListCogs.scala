package cogs.savina.concsll

import cogs.runtime._
import cogs.savina.concsll.SortedList.{Contains, LinkedIntList, Size, Write}

/** Sorted linked list on Cogs: each worker's loop awaits one call to the list object at a time. */
object SortedListCogs {

  trait ListObj extends Active {
    def add(v: Int): Proc[Int]
    def contains(v: Int): Proc[Int]
    def size(): Proc[Int]
    def digest(): Proc[Long]
  }

  trait Worker extends Active {
    def work(list: ListObj): Proc[Long]
  }

  final class ListImpl extends ActiveObject with ListObj {
    private[this] val list = new LinkedIntList
    def add(v: Int): Proc[Int] = { list.add(v); Proc.done(v) }
    def contains(v: Int): Proc[Int] = Proc.done(if (list.contains(v)) 1 else 0)
    def size(): Proc[Int] = Proc.done(list.size)
    def digest(): Proc[Long] = Proc.done(list.digest)
  }

  final class WorkerImpl(id: Int, p: Params) extends ActiveObject with Worker {
    private[this] val requests = new SortedList.Requests(p, id)
    private[this] var replies = 0L

    def work(list: ListObj): Proc[Long] =
      Proc.repeat(p.messagesPerWorker) { _ =>
        val (kind, v) = requests.next()
        val f = kind match {
          case Write    => list.send("add")(_.add(v))
          case Size     => list.send("size")(_.size())
          case Contains => list.send("contains")(_.contains(v))
        }
        Proc.await(f).map(_ => replies += 1)
      }.map(_ => replies)
  }

  def run(rt: CogRuntime, p: Params): ListAnswer =
    rt.run {
      val list: ListObj = Cogs.spawn(new ListImpl)
      val works = List.tabulate(p.workers) { i =>
        val w: Worker = Cogs.spawn(new WorkerImpl(i, p))
        w.send("work")(_.work(list))
      }
      for {
        replies <- Proc.awaitAll(works)
        size <- Proc.await(list.send("size")(_.size()))
        digest <- Proc.await(list.send("digest")(_.digest()))
      } yield ListAnswer(replies.sum, size, digest)
    }
}
