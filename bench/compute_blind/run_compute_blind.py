#!/usr/bin/env python3
"""Blind runner for the computation endpoints (loop-outcome, game-outcome,
shuffle-analysis).  Python 3 standard library only.

    python3 run_compute_blind.py [--base-url http://127.0.0.1:8000]
                                 [--scenarios compute_scenarios.json]
                                 [--only SUBSTRING] [--verbose]

Each scenario is POSTed to <base>/api/v1/jobs/<endpoint>?wait=30.  Per
API.md the POST answers 202 {"id","status","url"} or, when finished in
time, 200 with the job {"id","kind","status","result","error"}; an
unfinished job is polled at GET /api/v1/jobs/{id} for up to 60 s.  The
job's "result" is compared with the scenario's "expect":

  * {"status": 400}           -> the POST must answer 4xx
  * "a.b.c" keys              -> dotted path into the result
  * list                      -> set equality
  * {"min","max"}             -> numeric range (inclusive)
  * {"one_of": [...]}         -> membership
  * {"le_scenario": ID}       -> value <= the same field in scenario ID's result
  * anything else             -> equality (bool is not a number; a string
                                 also matches a one-element list holding it)
"""

import argparse
import json
import os
import sys
import time
import urllib.error
import urllib.request

MISSING = object()


def http(method, url, body=None, timeout=70):
    data = json.dumps(body).encode() if body is not None else None
    req = urllib.request.Request(
        url,
        data=data,
        method=method,
        headers={"Content-Type": "application/json", "Accept": "application/json"},
    )
    try:
        with urllib.request.urlopen(req, timeout=timeout) as r:
            raw = r.read()
            status = r.status
    except urllib.error.HTTPError as e:
        raw = e.read()
        status = e.code
    try:
        payload = json.loads(raw.decode("utf-8")) if raw else None
    except ValueError:
        payload = {"_raw": raw[:500].decode("utf-8", "replace")}
    return status, payload


def run_job(base, endpoint, request):
    """Returns (post_status, job_or_payload, error_text)."""
    url = f"{base}/api/v1/jobs/{endpoint}?wait=30"
    status, payload = http("POST", url, request)
    if status >= 400:
        return status, payload, None
    if not isinstance(payload, dict):
        return status, payload, "POST answer is not a JSON object"
    job = payload
    deadline = time.time() + 60
    job_id = job.get("id")
    while job.get("status") not in ("succeeded", "failed"):
        if job_id is None:
            return status, job, "job has no id"
        if time.time() > deadline:
            return (
                status,
                job,
                "job not finished after 60 s (status {!r})".format(job.get("status")),
            )
        time.sleep(0.5)
        st, job = http("GET", f"{base}/api/v1/jobs/{job_id}")
        if st != 200 or not isinstance(job, dict):
            return status, job, f"GET /api/v1/jobs/{job_id} answered {st}"
    return status, job, None


def get_path(obj, path):
    cur = obj
    for part in path.split("."):
        if isinstance(cur, dict) and part in cur:
            cur = cur[part]
        else:
            return MISSING
    return cur


def is_num(x):
    return isinstance(x, (int, float)) and not isinstance(x, bool)


def hashable(x):
    return json.dumps(x, sort_keys=True) if isinstance(x, (dict, list)) else x


def compare(key, exp, got, results):
    """Returns None when it matches, else a text describing the difference."""
    if got is MISSING:
        return f"{key}: missing from result (expected {exp!r})"
    if isinstance(exp, dict) and (set(exp) & {"min", "max", "one_of", "le_scenario"}):
        if "one_of" in exp and got not in exp["one_of"]:
            return "{}: got {!r}, expected one of {!r}".format(key, got, exp["one_of"])
        if "min" in exp or "max" in exp or "le_scenario" in exp:
            if not is_num(got):
                return f"{key}: got {got!r}, expected a number"
            if "min" in exp and got < exp["min"]:
                return "{}: got {!r} < min {!r}".format(key, got, exp["min"])
            if "max" in exp and got > exp["max"]:
                return "{}: got {!r} > max {!r}".format(key, got, exp["max"])
            if "le_scenario" in exp:
                other = results.get(exp["le_scenario"])
                if other is None:
                    return "{}: reference scenario {} has no result".format(key, exp["le_scenario"])
                ov = get_path(other, key)
                if not is_num(ov):
                    return "{}: reference {} has {!r}".format(key, exp["le_scenario"], ov)
                if got > ov + 1e-12:
                    return "{}: got {!r} > {!r} from {} (must not increase)".format(
                        key, got, ov, exp["le_scenario"]
                    )
        return None
    if isinstance(exp, list):
        if not isinstance(got, list):
            return f"{key}: got {got!r}, expected list {exp!r}"
        if set(map(hashable, got)) != set(map(hashable, exp)):
            return f"{key}: got {got!r}, expected (as a set) {exp!r}"
        return None
    if isinstance(exp, bool) or exp is None:
        if got is exp:
            return None
        return f"{key}: got {got!r}, expected {exp!r}"
    if is_num(exp):
        if is_num(got) and got == exp:
            return None
        return f"{key}: got {got!r}, expected {exp!r}"
    if isinstance(exp, str) and isinstance(got, list) and got == [exp]:
        return None
    if got != exp:
        return f"{key}: got {got!r}, expected {exp!r}"
    return None


def main():
    here = os.path.dirname(os.path.abspath(__file__))
    ap = argparse.ArgumentParser()
    ap.add_argument("--base-url", default="http://127.0.0.1:8000")
    ap.add_argument("--scenarios", default=os.path.join(here, "compute_scenarios.json"))
    ap.add_argument("--only", default=None, help="run scenarios whose id contains this")
    ap.add_argument("--verbose", action="store_true", help="print each result")
    args = ap.parse_args()
    base = args.base_url.rstrip("/")
    with open(args.scenarios, encoding="utf-8") as f:
        scenarios = json.load(f)
    if args.only:
        scenarios = [s for s in scenarios if args.only in s["id"]]

    results = {}
    by_cat = {}
    passed = failed = 0
    for sc in scenarios:
        cat = sc.get("category") or {
            "loop-outcome": "loops",
            "game-outcome": "games",
            "shuffle-analysis": "shuffles",
        }.get(sc["endpoint"], "other")
        exp = sc["expect"]
        diffs = []
        try:
            status, job, err = run_job(base, sc["endpoint"], sc["request"])
        except Exception as e:  # connection refused, timeout ...
            status, job, err = None, None, f"request failed: {type(e).__name__}: {e}"
        if err:
            diffs.append(err)
        elif set(exp) == {"status"}:
            want = exp["status"]
            if not (status is not None and 400 <= status < 500):
                diffs.append(
                    f"expected a 4xx answer ({want}), got {status} {json.dumps(job)[:300]}"
                )
            elif isinstance(job, dict) and not isinstance(job.get("error"), dict):
                diffs.append(f'4xx answer lacks {{"error": {{...}}}}: {json.dumps(job)[:300]}')
        elif status is not None and status >= 400:
            diffs.append(f"POST answered {status}: {json.dumps(job)[:400]}")
        elif job.get("status") != "succeeded":
            diffs.append("job {}: {}".format(job.get("status"), json.dumps(job.get("error"))[:400]))
        else:
            result = job.get("result")
            if not isinstance(result, dict):
                diffs.append(f"job result is not an object: {result!r}")
            else:
                results[sc["id"]] = result
                for key, ev in exp.items():
                    d = compare(key, ev, get_path(result, key), results)
                    if d:
                        diffs.append(d)
                if args.verbose:
                    print("   result: " + json.dumps(result)[:800])
        c = by_cat.setdefault(cat, [0, 0])
        if diffs:
            failed += 1
            c[1] += 1
            print(f"FAIL {sc['id']:<45} [{', '.join(sc.get('rule', []))}] {sc.get('why', '')}")
            for d in diffs:
                print("     - " + d)
        else:
            passed += 1
            c[0] += 1
            print("PASS {}".format(sc["id"]))
    print()
    print(f"{passed} passed, {failed} failed")
    for cat in sorted(by_cat):
        p, f = by_cat[cat]
        print(f"  {cat:<9} {p:3d}/{p + f:<3d}  {100.0 * p / (p + f) if p + f else 0.0:5.1f}%")
    return 0 if failed == 0 else 1


if __name__ == "__main__":
    sys.exit(main())
