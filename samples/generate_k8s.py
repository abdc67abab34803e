#!/usr/bin/env python3
"""Write the samples of runs on Kubernetes, as the log tools there print them.

Standard library only, deterministic (fixed seeds and dates). Each sample is
one training job seen through one tool; the lines inside are written from the
formats PyTorch, NCCL and Python logging print (as samples/generate.py does),
the wrapping from what each tool's source prints (kubectl's --prefix and the
kubelet's --timestamps, stern's template, logcli --output=jsonl, an
Elasticsearch _search response with Filebeat's fields, journalctl -o json with
the Docker journald driver's fields, aws logs filter-log-events with Container
Insights records). Nothing is copied from real logs.

Usage:  python3 samples/generate_k8s.py
"""

import datetime as dtm
import json
import os
import random
import shutil

ROOT = os.path.dirname(os.path.abspath(__file__))
UTC = dtm.timezone.utc
SITE = "/usr/local/lib/python3.11/site-packages"


def t_at(base, sec):
    return base + dtm.timedelta(seconds=sec)


def rfc3339nano(t):
    """The kubelet's RFC3339NanoFixed: nine digits, then Z."""
    return t.strftime("%Y-%m-%dT%H:%M:%S.") + "%06d000Z" % t.microsecond


def rfc3339_trimmed(t):
    """Go's time.RFC3339Nano (what logcli's jsonl prints): trailing zeros trimmed."""
    frac = ("%06d" % t.microsecond).rstrip("0")
    return t.strftime("%Y-%m-%dT%H:%M:%S") + ("." + frac if frac else "") + "Z"


def c10(rank, t, sev, src, msg):
    """c10 logger line of torch 2.4+ with the [rankN]: prefix."""
    return "[rank%d]:[%s%02d%02d %s.%06d000 %s] %s" % (
        rank, sev, t.month, t.day, t.strftime("%H:%M:%S"), t.microsecond, src, msg)


def pylog(t, level, loc, msg):
    return "%s,%03d %s %s %s" % (t.strftime("%Y-%m-%d %H:%M:%S"), t.microsecond // 1000,
                                 level, loc, msg)


def startup(rank, world, t, rng):
    return [
        (t, pylog(t, "INFO", "train.py:88", "rank %d/%d: model 7.1B params, bf16, FSDP" % (rank, world))),
        (t_at(t, 0.2), c10(rank, t_at(t, 0.2), "I", "ProcessGroupNCCL.cpp:2012",
                            "[PG ID 0 PG GUID 0(default_pg) Rank %d] ProcessGroupNCCL initialization options: size: %d, global rank: %d, TIMEOUT(ms): 600000"
                            % (rank, world, rank))),
    ]


def steps(rank, t, n, rng, first=1200):
    out = []
    for i in range(n):
        ts = t_at(t, i * 2.1 + rng.random() * 0.05)
        out.append((ts, pylog(ts, "INFO", "train.py:201", "step %d | loss %.4f | %.1f TFLOP/s"
                               % (first + i, 2.1 - i * 0.01 + rng.random() * 0.02,
                                  390 + rng.random() * 10))))
    return out


def watchdog(rank, t, seq):
    return [
        (t, c10(rank, t, "E", "ProcessGroupNCCL.cpp:632",
                "[PG ID 0 PG GUID 0(default_pg) Rank %d] Watchdog caught collective operation timeout: WorkNCCL(SeqNum=%d, OpType=ALLREDUCE, NumelIn=26214400, NumelOut=26214400, Timeout(ms)=600000) ran for 600031 milliseconds before timing out." % (rank, seq))),
        (t_at(t, 0.004), c10(rank, t_at(t, 0.004), "E", "ProcessGroupNCCL.cpp:1831",
                             "[PG ID 0 PG GUID 0(default_pg) Rank %d] Timeout at NCCL work: %d, last enqueued NCCL work: %d, last completed NCCL work: %d." % (rank, seq, seq, seq - 1))),
        (t_at(t, 0.005), c10(rank, t_at(t, 0.005), "E", "ProcessGroupNCCL.cpp:648",
                             "[Rank %d] To avoid data inconsistency, we are taking the entire process down." % rank)),
    ]


def traceback(t, lines):
    out = [(t, "Traceback (most recent call last):"),
           (t, '  File "/workspace/train.py", line 240, in <module>'),
           (t, "    main()"),
           (t, '  File "/workspace/train.py", line 221, in main'),
           (t, "    loss.backward()")]
    return out + [(t, ln) for ln in lines]


def story(rank, world, base, rng, steps_n, first, failing, failure, wd_at, seq):
    """One rank's lines: start-up, steps, then its failure (failure(t0) at
    the failing rank, t0 the job's base time) or, ten minutes on, its
    watchdog's timeout in the collective the failing rank never joined."""
    t = t_at(base, rng.random() * 0.5)
    lines = startup(rank, world, t, rng) + steps(rank, t_at(t, 5), steps_n, rng, first=first)
    if rank == failing:
        return lines + failure(base)
    return lines + watchdog(rank, t_at(base, wd_at + rng.random()), seq)


def sort_merge(per_pod):
    """[(time, pod, line)] of every pod, in time order (kubectl -f and stern
    interleave whole lines as they come)."""
    rows = []
    for pod, lines in per_pod.items():
        for k, (t, ln) in enumerate(lines):
            rows.append((t, pod, k, ln))
    rows.sort(key=lambda r: (r[0], r[1], r[2]))
    return rows


def reset(name):
    d = os.path.join(ROOT, name)
    shutil.rmtree(d, ignore_errors=True)
    os.makedirs(d)
    return d


def truth(name, verdict, initiating, suspect, entry):
    with open(os.path.join(ROOT, name + ".truth"), "w") as f:
        f.write("verdict: %s\ninitiating: %s\nfirst_suspect: %s\nfirst_entry: %s\n"
                % (verdict, initiating, suspect, entry))
    os.utime(os.path.join(ROOT, name + ".truth"), (1735689600, 1735689600))


def finish(path, last):
    ts = last.timestamp()
    os.utime(path, (ts, ts))


# --------------------------------------------------------------------------
# k8s-pytorchjob-oom: kubectl logs -f --prefix --timestamps over a PyTorchJob
# (train-master-0 = rank 0, train-worker-N = rank N+1, one process per pod).
# Rank 5 (train-worker-4) runs out of memory; ten minutes later the others'
# watchdogs time out in the allreduce it never joined.
# --------------------------------------------------------------------------

def gen_pytorchjob_oom():
    name = "k8s-pytorchjob-oom"
    d = reset(name)
    rng = random.Random(14001)
    base = dtm.datetime(2025, 5, 2, 10, 11, 12, 0, UTC)
    pods = ["train-master-0"] + ["train-worker-%d" % i for i in range(7)]
    per = {}
    def oom(b):
        return traceback(t_at(b, 17.3), [
            "torch.OutOfMemoryError: CUDA out of memory. Tried to allocate 3.50 GiB. GPU 0 has a total capacity of 79.10 GiB of which 1.21 GiB is free. Including non-PyTorch memory, this process has 77.88 GiB memory in use."])
    for rank, pod in enumerate(pods):
        per[pod] = story(rank, 8, base, rng, 6, 1200, 5, oom, 617.4, 4017)
    rows = sort_merge(per)
    path = os.path.join(d, "kubectl-logs.txt")
    with open(path, "w") as f:
        for t, pod, _, ln in rows:
            f.write("[pod/%s/pytorch] %s %s\n" % (pod, rfc3339nano(t), ln))
    finish(path, rows[-1][0])
    truth(name, "failure", 5, 5, "cuda-oom")


# --------------------------------------------------------------------------
# loki-ib-link-down: logcli query --forward --output=jsonl over a Kubeflow
# Trainer v2 TrainJob, four pods (llm-node-0-<i>-<suffix>) of torchrun
# --nproc-per-node 2 --tee 3: node i, [default<local>]: prefixes, global
# rank = 2 * i + local. Rank 5 (node 2, local 1) loses its InfiniBand link.
# --------------------------------------------------------------------------

def gen_loki_ib():
    name = "loki-ib-link-down"
    d = reset(name)
    rng = random.Random(14002)
    base = dtm.datetime(2025, 6, 9, 3, 40, 0, 0, UTC)
    suffix = ["x7k2p", "q9d4m", "h3t8w", "b5n1c"]
    rows = []
    for node in range(4):
        pod = "llm-node-0-%d-%s" % (node, suffix[node])
        host = "gpu-h100-%03d" % (17 + node)
        # torchrun's agent, before it starts the workers (torch 2.4+ header
        # on every line of its message)
        ta = t_at(base, -2 + rng.random() * 0.2)
        hdr = "I%02d%02d %s.%06d 1 torch/distributed/launcher/api.py:194] " % (
            ta.month, ta.day, ta.strftime("%H:%M:%S"), ta.microsecond)
        for k, ln in enumerate(["Starting elastic_operator with launch configs:",
                                "  entrypoint       : pretrain.py",
                                "  min_nodes        : 4", "  max_nodes        : 4",
                                "  nproc_per_node   : 2",
                                "  run_id           : llm-7b",
                                "  rdzv_backend     : c10d",
                                "  rdzv_endpoint    : llm-node-0-0.llm:29400"]):
            rows.append((ta, pod, host, -10 + k, hdr + ln))
        for local in range(2):
            rank = node * 2 + local
            t = t_at(base, rng.random() * 0.5)
            lines = [(tt, "[default%d]:%s" % (local, ln)) for tt, ln in
                     startup(rank, 8, t, rng) + steps(rank, t_at(t, 5), 5, rng, first=800)]
            if rank == 5:
                tf = t_at(base, 16.2)
                lines += [
                    (tf, "[default1]:%s:%d:%d [1] transport/net_ib.cc:1295 NCCL WARN NET/IB : Got completion from peer 10.44.2.19<52311> with error 12, opcode 0, len 0, vendor err 129 (Send) localGid ::ffff:10.44.2.21 remoteGids::ffff:10.44.2.19"
                     % (host, 4100 + rank, 4190 + rank)),
                    (t_at(tf, 0.3), "[default1]:[rank5]: torch.distributed.DistBackendError: NCCL error in: /pytorch/torch/csrc/distributed/c10d/ProcessGroupNCCL.cpp:3356, remote process exited or there was a network error, NCCL version 2.21.5"),
                ]
            else:
                lines += [(tt, "[default%d]:%s" % (local, ln)) for tt, ln in
                          watchdog(rank, t_at(base, 616.0 + rng.random()), 2210)]
            for k, (tt, ln) in enumerate(lines):
                rows.append((tt, pod, host, k, ln))
    rows.sort(key=lambda r: (r[0], r[1], r[3]))
    path = os.path.join(d, "logcli-query.jsonl")
    with open(path, "w") as f:
        for tt, pod, host, _, ln in rows:
            # logcli drops the labels common to every stream (namespace, job)
            f.write(json.dumps({"labels": {"container": "trainer", "node_name": host, "pod": pod},
                                "line": ln, "timestamp": rfc3339_trimmed(tt)},
                               separators=(",", ":")) + "\n")
    finish(path, rows[-1][0])
    truth(name, "failure", 5, 5, "nccl-network-error")


# --------------------------------------------------------------------------
# es-illegal-memory-access: an Elasticsearch _search response (Filebeat's
# fields, nested objects) over a PyTorchJob of one master and three workers,
# hits in score order (not by time), as a query with no sort returns them.
# Rank 3 (gpt-worker-2) hits an illegal memory access.
# --------------------------------------------------------------------------

def gen_es_ima():
    name = "es-illegal-memory-access"
    d = reset(name)
    rng = random.Random(14003)
    base = dtm.datetime(2025, 7, 21, 22, 5, 0, 0, UTC)
    pods = ["gpt-master-0", "gpt-worker-0", "gpt-worker-1", "gpt-worker-2"]
    hits = []
    def ima(b):
        return traceback(t_at(b, 14.8), [
            "RuntimeError: CUDA error: an illegal memory access was encountered",
            "CUDA kernel errors might be asynchronously reported at some other API call, so the stacktrace below might be incorrect."])
    for rank, pod in enumerate(pods):
        lines = story(rank, 4, base, rng, 4, 3000, 3, ima, 615.5, 911)
        for tt, ln in lines:
            hits.append({
                "_index": ".ds-logs-kubernetes-2025.07.21-000001",
                "_id": "%016x" % rng.getrandbits(64),
                "_score": round(1 + rng.random() * 6, 4),
                "_source": {
                    "@timestamp": tt.strftime("%Y-%m-%dT%H:%M:%S.") + "%03dZ" % (tt.microsecond // 1000),
                    "message": ln,
                    "stream": "stderr",
                    "host": {"name": "node-a%02d" % (rank + 1)},
                    "kubernetes": {"namespace": "research", "pod": {"name": pod},
                                   "node": {"name": "node-a%02d" % (rank + 1)},
                                   "container": {"name": "pytorch"}},
                },
            })
    hits.sort(key=lambda h: -h["_score"])
    doc = {"took": 41, "timed_out": False,
           "_shards": {"total": 3, "successful": 3, "skipped": 0, "failed": 0},
           "hits": {"total": {"value": len(hits), "relation": "eq"},
                    "max_score": hits[0]["_score"], "hits": hits}}
    path = os.path.join(d, "search-response.json")
    with open(path, "w") as f:
        json.dump(doc, f, indent=2)
        f.write("\n")
    finish(path, base + dtm.timedelta(seconds=700))
    truth(name, "failure", 3, 3, "cuda-illegal-memory-access")


# --------------------------------------------------------------------------
# journald-segfault: journalctl -o json on one node (Docker's journald log
# driver under cri-dockerd: CONTAINER_NAME k8s_<container>_<pod>_<ns>_...),
# four pods of an Indexed Job (bert-<index>-<suffix>), one process each.
# Rank 2 dies of a segmentation fault; faulthandler's lines are printed with
# a carriage return, so journald writes that MESSAGE as bytes.
# --------------------------------------------------------------------------

def gen_journald_segv():
    name = "journald-segfault"
    d = reset(name)
    rng = random.Random(14004)
    base = dtm.datetime(2025, 8, 14, 17, 2, 0, 0, UTC)
    suffix = ["m2x9c", "k8v3q", "t1w6z", "p4r7n"]
    rows = []
    def segv(b):
        tf = t_at(b, 13.9)
        return [(tf, "Fatal Python error: Segmentation fault\r"),
                (tf, ""),
                (tf, "Thread 0x00007f3a2c1ff640 (most recent call first):"),
                (tf, '  File "%s/torch/utils/data/_utils/worker.py", line 308 in _worker_loop' % SITE)]
    for rank in range(4):
        pod = "bert-%d-%s" % (rank, suffix[rank])
        lines = story(rank, 4, base, rng, 4, 51, 2, segv, 614.2, 77)
        for k, (tt, ln) in enumerate(lines):
            rows.append((tt, rank, pod, k, ln))
    rows.sort(key=lambda r: (r[0], r[1], r[3]))
    path = os.path.join(d, "journal.json")
    with open(path, "w") as f:
        for tt, rank, pod, _, ln in rows:
            usec = int(tt.timestamp()) * 1000000 + tt.microsecond
            msg = ln if all(32 <= ord(c) < 127 for c in ln) else list(ln.encode())
            rec = {"__CURSOR": "s=4f1c;i=%x" % (0x9a000 + usec % 100000),
                   "__REALTIME_TIMESTAMP": str(usec),
                   "_HOSTNAME": "gpu-b%02d" % (rank + 3),
                   "_TRANSPORT": "journal", "PRIORITY": "6",
                   "CONTAINER_NAME": "k8s_bert_%s_nlp_0f1e2d3c-4b5a-6978-8a9b-%012x_0" % (pod, rank + 1),
                   "CONTAINER_TAG": "%012x" % (0x3c2a1b000000 + rank),
                   "SYSLOG_IDENTIFIER": "%012x" % (0x3c2a1b000000 + rank),
                   "MESSAGE": msg}
            f.write(json.dumps(rec, separators=(",", ":")) + "\n")
    finish(path, rows[-1][0])
    truth(name, "failure", 2, 2, "segfault")


# --------------------------------------------------------------------------
# cloudwatch-disk-full: aws logs filter-log-events (JSON, the pages merged)
# of Container Insights' application log group on EKS: each message is the
# Fluent Bit record (log, stream, kubernetes.pod_name, kubernetes.host).
# PyTorchJob ckpt-master-0 and ckpt-worker-0..2; rank 0 writes the
# checkpoint and the disk is full; the others time out waiting for it.
# --------------------------------------------------------------------------

def gen_cloudwatch_disk():
    name = "cloudwatch-disk-full"
    d = reset(name)
    rng = random.Random(14005)
    base = dtm.datetime(2025, 9, 30, 8, 15, 0, 0, UTC)
    pods = ["ckpt-master-0", "ckpt-worker-0", "ckpt-worker-1", "ckpt-worker-2"]
    events = []
    def full(b):
        tf = t_at(b, 15.1)
        return [(tf, pylog(tf, "INFO", "train.py:260", "saving checkpoint global_step6000 to /ckpt/run17"))] + \
            traceback(t_at(tf, 2.2), [
                "OSError: [Errno 28] No space left on device: '/ckpt/run17/global_step6000/mp_rank_00_model_states.pt'"])
    for rank, pod in enumerate(pods):
        lines = story(rank, 4, base, rng, 4, 5997, 0, full, 617.0, 6001)
        host = "ip-10-0-%d-%d.ec2.internal" % (1 + rank // 2, 20 + rank)
        cid = "%064x" % rng.getrandbits(256)
        for tt, ln in lines:
            ms = int(tt.timestamp() * 1000)
            rec = {"log": ln + "\n", "stream": "stderr", "time": rfc3339nano(tt),
                   "kubernetes": {"pod_name": pod, "namespace_name": "default",
                                  "host": host, "container_name": "pytorch",
                                  "docker_id": cid[:64]}}
            events.append({"logStreamName": "%s-application.var.log.containers.%s_default_pytorch-%s.log"
                                            % (host, pod, cid),
                           "timestamp": ms, "message": json.dumps(rec, separators=(",", ":")),
                           "ingestionTime": ms + 800 + rng.randint(0, 400),
                           "eventId": "%d" % (37900000000000000000000000000000000000000000000000000000 + ms)})
    events.sort(key=lambda e: (e["timestamp"], e["logStreamName"]))
    path = os.path.join(d, "filter-log-events.json")
    with open(path, "w") as f:
        json.dump({"events": events, "searchedLogStreams": []}, f, indent=4)
        f.write("\n")
    finish(path, base + dtm.timedelta(seconds=700))
    truth(name, "failure", 0, 0, "disk-full")


# --------------------------------------------------------------------------
# stern-silent-worker: stern --timestamps --color never over a PyTorchJob of
# eight pods; train-worker-2 (rank 3) stops writing mid-step and never
# reports anything; the others' watchdogs time out: a hang, rank 3 silent.
# --------------------------------------------------------------------------

def gen_stern_silent():
    name = "stern-silent-worker"
    d = reset(name)
    rng = random.Random(14006)
    base = dtm.datetime(2025, 10, 7, 1, 30, 0, 0, UTC)
    pods = ["train-master-0"] + ["train-worker-%d" % i for i in range(7)]
    per = {}
    for rank, pod in enumerate(pods):
        t = t_at(base, rng.random() * 0.5)
        lines = startup(rank, 8, t, rng)
        if rank == 3:
            lines += steps(rank, t_at(t, 5), 3, rng)
        else:
            lines += steps(rank, t_at(t, 5), 4, rng)
            lines += watchdog(rank, t_at(base, 616.1 + rng.random()), 1204)
        per[pod] = lines
    rows = sort_merge(per)
    path = os.path.join(d, "stern.txt")
    with open(path, "w") as f:
        for t, pod, _, ln in rows:
            f.write("%s pytorch %s %s\n" % (pod, rfc3339nano(t), ln))
    finish(path, rows[-1][0])
    truth(name, "hang", "none", 3, "nccl-watchdog-timeout")


if __name__ == "__main__":
    gen_pytorchjob_oom()
    gen_loki_ib()
    gen_es_ima()
    gen_journald_segv()
    gen_cloudwatch_disk()
    gen_stern_silent()
