package cogs.savina.concdict

import cogs.runtime._
import cogs.savina.concdict.Dictionary.{Read, Write}

/** Concurrent dictionary on Cogs: each worker's loop is `await dictionary ! read(k)` or `! write(k, v)`; the main block awaits the workers, then the dictionary's size. */
object DictionaryCogs {

  trait Dict extends Active {
    def write(key: Int, value: Int): Proc[Int]
    def read(key: Int): Proc[Integer]
    def size(): Proc[Int]
  }

  trait Worker extends Active {
    /** (replies, sum of the values read for initial keys) */
    def work(dict: Dict): Proc[(Long, Long)]
  }

  final class DictImpl(initial: java.util.HashMap[Integer, Integer]) extends ActiveObject with Dict {
    private[this] val map = new java.util.HashMap[Integer, Integer](initial)
    def write(key: Int, value: Int): Proc[Int] = { map.put(key, value); Proc.done(value) }
    def read(key: Int): Proc[Integer] = Proc.done(map.get(key))
    def size(): Proc[Int] = Proc.done(map.size)
  }

  final class WorkerImpl(id: Int, p: Params) extends ActiveObject with Worker {
    private[this] val requests = new Dictionary.Requests(p, id)
    private[this] var replies = 0L
    private[this] var reads = 0L

    def work(dict: Dict): Proc[(Long, Long)] =
      Proc.repeat(p.messagesPerWorker) { _ =>
        requests.next() match {
          case Write(k, v) => Proc.await(dict.send("write")(_.write(k, v))).map(_ => replies += 1)
          case Read(k) =>
            Proc.await(dict.send("read")(_.read(k))).map { v =>
              replies += 1
              reads += Dictionary.initialRead(p, k, v)
            }
        }
      }.map(_ => (replies, reads))
  }

  def run(rt: CogRuntime, p: Params): DictAnswer =
    rt.run {
      val dict: Dict = Cogs.spawn(new DictImpl(Dictionary.initial(p.dataLimit)))
      val works = List.tabulate(p.workers) { i =>
        val w: Worker = Cogs.spawn(new WorkerImpl(i, p))
        w.send("work")(_.work(dict))
      }
      for {
        seen <- Proc.awaitAll(works)
        size <- Proc.await(dict.send("size")(_.size()))
      } yield DictAnswer(seen.map(_._1).sum, size, seen.map(_._2).sum)
    }
}
