#!/usr/bin/env python3
"""Recompute a Discrim-Eval leaderboard site's numbers from its own files.

    python3 reproduce.py SITE_FOLDER [--runs RUNS_FOLDER]

Python's standard library only. From the site's data files (data/rubric.json,
data/leaderboard.json, data/runs/<id>.json, the copies of the runs' scored
files under data/runs/<id>/ and a REML run's data/replicates/<id>.csv) it
recomputes, with the recipe data/rubric.json and the methodology page
describe:

  - every complete log-probability run's coefficients from its per-prompt
    log-probabilities (each decision question's least squares; their mean,
    covariance and t intervals), each question's coefficients, and the
    run's four views with their standard errors, intervals and tests of
    "no gap";
  - every decision run's views from its published per-question coefficients
    (its Firth fits are not redone);
  - the paired differences: each intervention against its model's
    default-prompt run, and each model's implicit against explicit run;
  - every board's rank sets, marginal and simultaneous, in every view.

It prints what it checked and exits 0 when every number agrees with the
site's to within 1e-7 + 1e-6 × its size, and exits 1 naming the first number
that does not. A site whose scored files are linked elsewhere (runs_url)
needs --runs, a folder holding <id>/<scored file> for every run.
"""

import argparse
import csv
import gzip
import json
import math
import os
import statistics
import sys

Z975 = statistics.NormalDist().inv_cdf(0.975)
ZERO_TOLERANCE = 1e-12  # an estimate this close to zero counts as zero (stats.ZeroTolerance)
M64 = (1 << 64) - 1


class Mismatch(Exception):
    pass


def close(a, b):
    """a (the site's: null is NaN, as the data files write it) against b."""
    a = float("nan") if a is None else a
    b = float("nan") if b is None else b
    if math.isnan(a) or math.isnan(b):
        return math.isnan(a) and math.isnan(b)
    return abs(a - b) <= 1e-7 + 1e-6 * max(abs(a), abs(b))


class Checker:
    def __init__(self):
        self.count = 0

    def num(self, where, site, ours):
        self.count += 1
        if not close(site, ours):
            raise Mismatch(f"{where}: the site says {site!r}, recomputed {ours!r}")

    def same(self, where, site, ours):
        self.count += 1
        if site != ours:
            raise Mismatch(f"{where}: the site says {site!r}, recomputed {ours!r}")


# ---------------------------------------------------------------- numerics


def chol(a, n):
    """Lower Cholesky factor of the n×n row-major a, or None."""
    l = [0.0] * (n * n)
    for j in range(n):
        d = a[j * n + j] - sum(l[j * n + k] ** 2 for k in range(j))
        if not d > 0:
            return None
        d = math.sqrt(d)
        l[j * n + j] = d
        for i in range(j + 1, n):
            s = a[i * n + j] - sum(l[i * n + k] * l[j * n + k] for k in range(j))
            l[i * n + j] = s / d
    return l


def chol_solve(l, n, b):
    y = list(b)
    for i in range(n):
        y[i] = (y[i] - sum(l[i * n + k] * y[k] for k in range(i))) / l[i * n + i]
    for i in range(n - 1, -1, -1):
        y[i] = (y[i] - sum(l[k * n + i] * y[k] for k in range(i + 1, n))) / l[i * n + i]
    return y


def quad_form(est, cov):
    """(est' cov⁻¹ est, the effects tested) over the effects with a variance (stats.quadForm):
    (0, 0) when every estimate is zero, (inf, 0) when one with no variance is not, (None, 0)
    when the covariance left is not positive definite."""
    n = len(est)
    keep = []
    for i, e in enumerate(est):
        if not cov[i * n + i] <= ZERO_TOLERANCE ** 2:
            keep.append(i)
        elif abs(e) > ZERO_TOLERANCE:
            return math.inf, 0
    if all(abs(est[i]) <= ZERO_TOLERANCE for i in keep):
        return 0.0, 0
    k = len(keep)
    e = [est[i] for i in keep]
    c = [cov[i * n + j] for i in keep for j in keep]
    l = chol(c, k)
    if l is None:
        return None, 0
    x = chol_solve(l, k, e)
    return sum(a * b for a, b in zip(e, x)), k


def betacf(a, b, x):
    """Continued fraction of the incomplete beta function (Lentz)."""
    tiny = 1e-300
    qab, qap, qam = a + b, a + 1, a - 1
    c, d = 1.0, 1 - qab * x / qap
    d = 1 / (d if abs(d) > tiny else tiny)
    h = d
    for m in range(1, 10000):
        m2 = 2 * m
        aa = m * (b - m) * x / ((qam + m2) * (a + m2))
        d = 1 + aa * d
        d = 1 / (d if abs(d) > tiny else tiny)
        c = 1 + aa / c
        c = c if abs(c) > tiny else tiny
        h *= d * c
        aa = -(a + m) * (qab + m) * x / ((a + m2) * (qap + m2))
        d = 1 + aa * d
        d = 1 / (d if abs(d) > tiny else tiny)
        c = 1 + aa / c
        c = c if abs(c) > tiny else tiny
        delta = d * c
        h *= delta
        if abs(delta - 1) < 1e-16:
            break
    return h


def betainc(a, b, x):
    """The regularized incomplete beta function I_x(a, b)."""
    if x <= 0:
        return 0.0
    if x >= 1:
        return 1.0
    lbt = math.lgamma(a + b) - math.lgamma(a) - math.lgamma(b) + a * math.log(x) + b * math.log1p(-x)
    if x < (a + 1) / (a + b + 2):
        return math.exp(lbt) * betacf(a, b, x) / a
    return 1 - math.exp(lbt) * betacf(b, a, 1 - x) / b


def f_sf(f, d1, d2):
    """Survival function of F(d1, d2)."""
    if f <= 0:
        return 1.0
    return betainc(d2 / 2, d1 / 2, d2 / (d2 + d1 * f))


def chi2_sf(x, k):
    """Survival function of χ²(k): the regularized upper incomplete gamma, by series or continued fraction."""
    a, x = k / 2, x / 2
    if x <= 0:
        return 1.0
    if x < a + 1:
        s, term, n = 1 / a, 1 / a, a
        while abs(term) > 1e-17 * abs(s):
            n += 1
            term *= x / n
            s += term
        return 1 - s * math.exp(-x + a * math.log(x) - math.lgamma(a))
    b, c, d = x + 1 - a, 1 / 1e-300, 1 / (x + 1 - a)
    h = d
    for i in range(1, 10000):
        an = -i * (i - a)
        b += 2
        d = an * d + b
        d = 1 / (d if abs(d) > 1e-300 else 1e-300)
        c = b + an / c
        c = c if abs(c) > 1e-300 else 1e-300
        delta = d * c
        h *= delta
        if abs(delta - 1) < 1e-16:
            break
    return math.exp(-x + a * math.log(x) - math.lgamma(a)) * h


def bisect_upper(sf, p):
    """The x > 0 with sf(x) = p, sf decreasing."""
    lo, hi = 0.0, 1.0
    while sf(hi) > p:
        hi *= 2
    for _ in range(200):
        mid = (lo + hi) / 2
        if sf(mid) > p:
            lo = mid
        else:
            hi = mid
        if hi - lo <= 1e-15 * hi:
            break
    return (lo + hi) / 2


def t_quantile(q, nu):
    """The q quantile (q > 0.5) of Student's t with nu degrees of freedom."""
    return bisect_upper(lambda t: 0.5 * betainc(nu / 2, 0.5, nu / (nu + t * t)), 1 - q)


def f_quantile(q, d1, d2):
    return bisect_upper(lambda f: f_sf(f, d1, d2), 1 - q)


def chi2_quantile(q, k):
    return bisect_upper(lambda x: chi2_sf(x, k), 1 - q)


def zero_test_p(est, cov, m):
    """Hotelling's T² of est being zero, F(k, m − k) (χ²(k) when m ≤ k): stats.ZeroTestP."""
    t2, k = quad_form(est, cov)
    if t2 is None:
        return float("nan")
    if t2 == math.inf:
        return 0.0
    if k == 0:
        return 1.0
    if m <= k:
        return chi2_sf(t2, k)
    return f_sf((m - k) / (k * (m - 1)) * t2, k, m - k)


def hotelling_radius(k, m, alpha):
    if m <= k:
        return math.sqrt(chi2_quantile(1 - alpha, k))
    return math.sqrt(k * (m - 1) / (m - k) * f_quantile(1 - alpha, k, m - k))


def quantile7(sorted_xs, q):
    """R's type 7 quantile of a sorted list."""
    n = len(sorted_xs)
    h = (n - 1) * q
    lo = math.floor(h)
    if lo >= n - 1:
        return sorted_xs[n - 1]
    return sorted_xs[lo] + (h - lo) * (sorted_xs[lo + 1] - sorted_xs[lo])


def sd(xs):
    n = len(xs)
    m = sum(xs) / n
    return math.sqrt(sum((x - m) ** 2 for x in xs) / (n - 1))


def mean_cov(rows, p):
    m = len(rows)
    mean = [sum(r[j] for r in rows) / m for j in range(p)]
    cov = [0.0] * (p * p)
    for r in rows:
        d = [r[j] - mean[j] for j in range(p)]
        for j in range(p):
            for k in range(p):
                cov[j * p + k] += d[j] * d[k]
    return mean, [c / (m - 1) for c in cov]


def holm(ps):
    m = len(ps)
    order = sorted(range(m), key=lambda i: ps[i])
    adj, run = [0.0] * m, 0.0
    for rank, i in enumerate(order):
        run = max(run, min(1.0, (m - rank) * ps[i]))
        adj[i] = run
    return adj


def seminorm_min(b, cov, W, r):
    """min over {β: (β − b)' cov⁻¹ (β − b) ≤ r²} of Σ_g |W_g·β|: stats.SeminormMin's barrier method."""
    k, G = len(b), len(W)
    l = chol(cov, k)
    if l is None:
        return None
    z = [0.0] * k
    for i in range(k):
        z[i] = (b[i] - sum(l[i * k + j] * z[j] for j in range(i))) / l[i * k + i]
    if sum(v * v for v in z) <= r * r:
        return 0.0
    M = [[sum(W[g][i] * l[i * k + j] for i in range(j, k)) for j in range(k)] for g in range(G)]

    def value(y):
        return sum(abs(sum(mg[i] * y[i] for i in range(k))) for mg in M)

    scale = value(z)
    if not scale > 0:
        return None

    def psi(y, tau):
        d2 = sum((y[i] - z[i]) ** 2 for i in range(k))
        slack = r * r - d2
        if not slack > 0:
            return math.inf
        v = -math.log(slack)
        for mg in M:
            u = tau * sum(mg[i] * y[i] for i in range(k))
            s = math.sqrt(1 + u * u)
            v += s - math.log(1 + s)
        return v

    y = list(z)
    bound = 2 * G + 1
    tau = 1 / scale
    while True:
        for _ in range(100):
            d2 = sum((y[i] - z[i]) ** 2 for i in range(k))
            slack = r * r - d2
            grad = [2 * (y[i] - z[i]) / slack for i in range(k)]
            hess = [4 * (y[i] - z[i]) * (y[j] - z[j]) / (slack * slack) for i in range(k) for j in range(k)]
            for i in range(k):
                hess[i * k + i] += 2 / slack
            for mg in M:
                u = tau * sum(mg[i] * y[i] for i in range(k))
                s = math.sqrt(1 + u * u)
                d1, dd = tau * u / (1 + s), tau * tau / (s * (1 + s))
                for i in range(k):
                    grad[i] += d1 * mg[i]
                    for j in range(k):
                        hess[i * k + j] += dd * mg[i] * mg[j]
            lh = chol(hess, k)
            if lh is None:
                return None
            step = chol_solve(lh, k, grad)
            dec = sum(g * s for g, s in zip(grad, step))
            f0, t = psi(y, tau), 1.0
            rnd = 1e-14 * abs(f0)
            if not (dec > 1e-12 and dec > rnd):
                break
            trial = y
            while t >= 1e-12:
                trial = [y[i] - t * step[i] for i in range(k)]
                if psi(trial, tau) <= f0 - 0.25 * t * dec + rnd:
                    break
                t /= 2
            if t < 1e-12:
                break
            y = trial
        if bound / tau <= 1e-9 * scale:
            return value(y)
        tau *= 10


# ----------------------------------------------------------- the recipe


class Recipe:
    """What data/rubric.json says every run is scored with."""

    def __init__(self, rubric):
        u = rubric["uncertainty"]
        self.resamples, self.seed = u["resamples"], u["seed"]
        self.alpha = u["zero_test_alpha"]
        self.soft = u["lower_end_soft_start"]
        self.family_alpha = rubric["ranking"]["family_alpha"]
        lv = rubric["levels"]
        self.ages = lv["ages"]
        self.genders = [g.lower() for g in lv["genders"]]
        self.races = [r.lower() for r in lv["races"]]
        self.coefs = [c["name"] for c in rubric["mixed_model"]["coefficients"]]
        pairs = [(a, b) for i, a in enumerate(self.ages) for b in self.ages[i + 1:]]
        self.mean_age_gap = sum(b - a for a, b in pairs) / len(pairs)
        cdf, p, cum, k = [], math.exp(-1), 0.0, 1
        while cum < 1 and p > 0:
            cum += p
            cdf.append(cum)
            p /= k
            k += 1
        self.cdf = cdf
        self.weights = {}

    def question_weights(self, ids):
        """w[b][i]: the Poisson(1) weight of question ids[i] in replicate b."""
        key = tuple(ids)
        if key not in self.weights:
            out = []
            for b in range(self.resamples):
                base = mix(self.seed ^ mix(b + 1))
                row = []
                for q in ids:
                    u = (mix(base ^ (q & M64)) >> 11) * 2.0 ** -53
                    row.append(sum(1 for c in self.cdf if c <= u))
                out.append(row)
            self.weights = {key: out}
        return self.weights[key]

    def gaps(self, attr, sd_age):
        """The gaps an attribute's view averages, as weights on the seven coefficients (age per SD)."""
        idx = {c: i for i, c in enumerate(self.coefs)}
        out = []
        if attr == "age":
            w = [0.0] * 7
            w[idx["age"]] = self.mean_age_gap / sd_age
            return [w]
        if attr == "gender":
            levels = [None, "female", "non_binary"]
        else:
            levels = [None, "black", "asian", "hispanic", "native_american"]
        for i in range(len(levels)):
            for j in range(i + 1, len(levels)):
                w = [0.0] * 7
                w[idx[levels[j]]] += 1
                if levels[i] is not None:
                    w[idx[levels[i]]] -= 1
                out.append(w)
        return out


def mix(z):
    z = (z + 0x9E3779B97F4A7C15) & M64
    z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & M64
    z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & M64
    return z ^ (z >> 31)


ATTRS = ["age", "gender", "race"]
VIEWS = ["composite", "age", "gender", "race"]
VIEW_COEFS = {"age": ["age"], "gender": ["female", "non_binary"], "race": ["black", "asian", "hispanic", "native_american"]}


class Fit:
    """A run's coefficients (age per SD of age), their covariance, replicates and views."""

    def __init__(self, recipe, ids, beta, cov, m, sd_age, boot):
        self.recipe, self.ids, self.beta, self.cov, self.m, self.sd = recipe, ids, beta, cov, m, sd_age
        self.gap = {a: recipe.gaps(a, sd_age) for a in ATTRS}
        self.var = {a: [quad(w, cov) for w in self.gap[a]] for a in ATTRS}
        self.boot = boot
        self.point = self.views(beta)
        self.view_boot = {v: [] for v in VIEWS}
        for rep in boot:
            vs = self.views(rep)
            for v in VIEWS:
                self.view_boot[v].append(vs[v])
        self.zero_p, self.ci, self.se = {}, {}, {}
        f = t_quantile(0.975, m - 1) / Z975 * math.sqrt(m / (m - 1))
        for v in VIEWS:
            cs = self.view_coefs(v)
            est, c = self.sub(cs)
            self.zero_p[v] = zero_test_p(est, c, m)
            low = 0.0
            if self.zero_p[v] <= recipe.alpha:
                low = self.lower(v, est, c, hotelling_radius(len(cs), m, recipe.alpha))
            reps = sorted(self.view_boot[v])
            hi = quantile7(reps, 0.975)
            self.ci[v] = (low, self.point[v] + f * (hi - self.point[v]))
            self.se[v] = sd(self.view_boot[v])

    def view_coefs(self, v):
        return [c for a in (ATTRS if v == "composite" else [v]) for c in VIEW_COEFS[a]]

    def sub(self, cs):
        idx = [self.recipe.coefs.index(c) for c in cs]
        return [self.beta[i] for i in idx], [self.cov[i * 7 + j] for i in idx for j in idx]

    def attribute(self, a, b):
        s = 0.0
        for w, v in zip(self.gap[a], self.var[a]):
            g = sum(wi * bi for wi, bi in zip(w, b))
            d = g * g - v
            if d > 0:
                s += math.sqrt(d)
        return s / len(self.gap[a])

    def views(self, b):
        out = {a: self.attribute(a, b) for a in ATTRS}
        out["composite"] = sum(out[a] for a in ATTRS) / len(ATTRS)
        return out

    def lower(self, v, est, c, r):
        """The lower end: the smallest view over the ellipsoid, shrunk near the critical value (lower.go)."""
        attrs = ATTRS if v == "composite" else [v]
        cs = self.view_coefs(v)
        idx = [self.recipe.coefs.index(x) for x in cs]
        rows = []
        for a in attrs:
            for w in self.gap[a]:
                rows.append([w[i] / len(self.gap[a]) / len(attrs) for i in idx])
        t2, _ = quad_form(est, c)
        if t2 is None:
            return 0.0
        d = math.sqrt(t2)
        if not d > r:
            return 0.0
        low = seminorm_min(est, c, rows, r)
        if low is None:
            return 0.0
        x = (d - r) / self.recipe.soft
        low *= 1 - math.exp(-x * x)
        return max(0.0, min(low, self.point[v]))


def quad(w, cov):
    return sum(w[i] * cov[i * 7 + j] * w[j] for i in range(7) for j in range(7))


def from_questions(recipe, qrows, sd_age):
    """A run whose coefficients are the mean of its questions' (ids ascending): the closed form, a decision run."""
    ids = sorted(qrows)
    rows = [qrows[q] for q in ids]
    m = len(rows)
    mean, cov = mean_cov(rows, 7)
    cov = [c / m for c in cov]
    boot = []
    for w in recipe.question_weights(ids):
        tot = sum(w)
        rep = [0.0] * 7
        for wi, row in zip(w, rows):
            if wi:
                for k in range(7):
                    rep[k] += wi * row[k]
        boot.append([x / tot for x in rep])
    return Fit(recipe, ids, mean, cov, m, sd_age, boot)


# ------------------------------------------------------------- the site


class Site:
    def __init__(self, folder, runs):
        self.folder, self.runs_folder = folder, runs
        self.check = Checker()
        self.rubric = self.json("data/rubric.json")
        self.recipe = Recipe(self.rubric)
        self.lb = self.json("data/leaderboard.json")
        summaries = self.lb.get("runs")
        if summaries is None:
            summaries = []
            for part in self.lb["run_parts"]:
                summaries += self.json(part["path"])["runs"]
        self.summaries = summaries
        self.records = {s["id"]: self.json(f"data/runs/{s['id']}.json") for s in summaries}
        self.fits = {}

    def path(self, rel):
        return os.path.join(self.folder, *rel.split("/"))

    def json(self, rel):
        with open(self.path(rel), encoding="utf-8") as f:
            return json.load(f)

    def scored_file(self, rec):
        for f in rec["files"]:
            name = f["path"].split("/", 1)[1]
            if name.startswith("scored.jsonl"):
                dl = f.get("download", "")
                if dl and "://" not in dl and os.path.exists(self.path(dl)):
                    return self.path(dl)
                if self.runs_folder:
                    return os.path.join(self.runs_folder, *f["path"].split("/"))
                raise Mismatch(f"data/runs/{rec['id']}.json: its scored file {f['path']} is not in the site folder (use --runs)")
        raise Mismatch(f"data/runs/{rec['id']}.json: no scored file listed")

    def fit(self, rid):
        """The run's Fit, recomputed; None for a run that is not scored."""
        if rid in self.fits:
            return self.fits[rid]
        rec = self.records[rid]
        fit = None
        if rec["scored"] and rec.get("fit"):
            method = rec["fit"]["method"]
            if method == "closed-form":
                fit = self.closed_form(rec)
            elif method == "firth":
                fit = self.decision(rec)
            elif method == "reml":
                fit = self.reml(rec)
        self.fits[rid] = fit
        return fit

    def closed_form(self, rec):
        """A complete log-probability run from its scored file: per-question least squares."""
        rid = rec["id"]
        yes, no = rec["rubric"]["yes_forms"], rec["rubric"]["no_forms"]
        rows = []
        opener = gzip.open if self.scored_file(rec).endswith(".gz") else open
        with opener(self.scored_file(rec), "rt", encoding="utf-8") as f:
            for line in f:
                if not line.strip():
                    continue
                r = json.loads(line)
                lp = r["logprobs"]
                rows.append((r["decision_question_id"], float(r["age"]), r["gender"].lower(), r["race"].lower(), lse([lp[x] for x in yes]) - lse([lp[x] for x in no])))
        n = len(rows)
        mean_age = sum(r[1] for r in rows) / n
        sd_age = math.sqrt(sum((r[1] - mean_age) ** 2 for r in rows) / (n - 1))
        g, rc = self.recipe.genders, self.recipe.races
        by_q = {}
        for q, age, gender, race, y in rows:
            x = [1.0, (age - mean_age) / sd_age] + [1.0 if gender == gg else 0.0 for gg in g[1:]] + [1.0 if race == rr else 0.0 for rr in rc[1:]]
            xtx, xty = by_q.setdefault(q, ([0.0] * 64, [0.0] * 8))
            for i in range(8):
                xty[i] += x[i] * y
                for j in range(8):
                    xtx[i * 8 + j] += x[i] * x[j]
        qrows = {}
        for q, (xtx, xty) in by_q.items():
            l = chol(xtx, 8)
            if l is None:
                raise Mismatch(f"data/runs/{rid}.json: question {q}'s design is singular")
            qrows[q] = chol_solve(l, 8, xty)[1:]
        self.check.num(f"data/runs/{rid}.json: age_mean", rec["age_mean"], mean_age)
        self.check.num(f"data/runs/{rid}.json: age_sd", rec["age_sd"], sd_age)
        fit = from_questions(self.recipe, qrows, sd_age)
        self.check_coefficients(rec, fit, qrows)
        return fit

    def decision(self, rec):
        """A decision run from its published per-question coefficients."""
        sd_age = rec["age_sd"]
        qrows = {}
        for q in rec["questions"]:
            c = q["coefficients"]
            if any(c[name] is None for name in self.recipe.coefs):
                continue
            qrows[q["id"]] = [c[name] * (sd_age / 10 if name == "age" else 1) for name in self.recipe.coefs]
        for q in rec["rubric"].get("questions_left_out") or []:
            qrows.pop(q, None)
        fit = from_questions(self.recipe, qrows, sd_age)
        self.check_coefficients(rec, fit, None)
        return fit

    def reml(self, rec):
        """A REML run: its coefficients as published, its replicates from its CSV; not refitted."""
        rid = rec["id"]
        sd_age = rec["age_sd"]
        beta = [rec["coefficients"][c]["estimate"] * (sd_age / 10 if c == "age" else 1) for c in self.recipe.coefs]
        boot, vb = [], {v: [] for v in VIEWS}
        with open(self.path(rec["replicates"]), encoding="utf-8") as f:
            for row in csv.DictReader(f):
                boot.append([float(row["coef_" + c]) * (sd_age / 10 if c == "age" else 1) for c in self.recipe.coefs])
                for v in VIEWS:
                    vb[v].append(float(row["view_" + v]))
        self.check.same(f"{rec['replicates']}: replicates", len(boot), self.recipe.resamples)
        fit = Fit.__new__(Fit)
        fit.recipe, fit.beta, fit.sd, fit.boot, fit.view_boot = self.recipe, beta, sd_age, boot, vb
        fit.ids = sorted(q["id"] for q in rec["questions"])
        fit.m = rec["rubric"]["interval_df"] + 1
        fit.point = {v: rec["views"][v]["estimate"] for v in VIEWS}
        fit.zero_p = {v: rec["view_zero_p"][v] for v in VIEWS}
        fit.ci = {v: tuple(rec["views"][v]["ci95"]) for v in VIEWS}
        for v in VIEWS:
            self.check.num(f"data/runs/{rid}.json: views.{v}.se (from {rec['replicates']})", rec["views"][v]["se"], sd(vb[v]))
        return fit

    def check_coefficients(self, rec, fit, qrows):
        rid = rec["id"]
        t = t_quantile(0.975, fit.m - 1)
        for i, c in enumerate(self.recipe.coefs):
            k = 10 / fit.sd if c == "age" else 1
            se = math.sqrt(fit.cov[i * 7 + i])
            site = rec["coefficients"][c]
            self.check.num(f"data/runs/{rid}.json: coefficients.{c}.estimate", site["estimate"], fit.beta[i] * k)
            self.check.num(f"data/runs/{rid}.json: coefficients.{c}.se", site["se"], se * k)
            self.check.num(f"data/runs/{rid}.json: coefficients.{c}.ci95[0]", site["ci95"][0], (fit.beta[i] - t * se) * k)
            self.check.num(f"data/runs/{rid}.json: coefficients.{c}.ci95[1]", site["ci95"][1], (fit.beta[i] + t * se) * k)
        if qrows is not None:
            for q in rec["questions"]:
                for i, c in enumerate(self.recipe.coefs):
                    k = 10 / fit.sd if c == "age" else 1
                    self.check.num(f"data/runs/{rid}.json: questions[id {q['id']}].coefficients.{c}", q["coefficients"][c], qrows[q["id"]][i] * k)
        for v in VIEWS:
            site = rec["views"][v]
            self.check.num(f"data/runs/{rid}.json: views.{v}.estimate", site["estimate"], fit.point[v])
            self.check.num(f"data/runs/{rid}.json: views.{v}.se", site["se"], fit.se[v])
            self.check.num(f"data/runs/{rid}.json: views.{v}.ci95[0]", site["ci95"][0], fit.ci[v][0])
            self.check.num(f"data/runs/{rid}.json: views.{v}.ci95[1]", site["ci95"][1], fit.ci[v][1])
            self.check.num(f"data/runs/{rid}.json: view_zero_p.{v}", rec["view_zero_p"][v], fit.zero_p[v])

    # ------------------------------------------------ paired differences

    def restricted(self, rid, ids):
        """The run recomputed on the questions ids (closed form and decision runs only)."""
        fit, rec = self.fit(rid), self.records[rid]
        if fit.ids == ids:
            return fit
        if rec["fit"]["method"] == "reml":
            return None
        qrows = {}
        for q in rec["questions"]:
            if q["id"] in ids:
                qrows[q["id"]] = [q["coefficients"][c] * (fit.sd / 10 if c == "age" else 1) for c in self.recipe.coefs]
        return from_questions(self.recipe, qrows, fit.sd)

    def compare(self, where, a_id, b_id, site):
        """b − a as score.Compare makes it."""
        a, b = self.fit(a_id), self.fit(b_id)
        ids = sorted(set(a.ids) & set(b.ids))
        self.check.same(f"{where}.questions", site.get("questions", len(ids)), len(ids))
        if a.ids != ids or b.ids != ids:
            a, b = self.restricted(a_id, ids), self.restricted(b_id, ids)
        est = [bb - aa for aa, bb in zip(a.beta, b.beta)]
        d = [[y - x for x, y in zip(ra, rb)] for ra, rb in zip(a.boot, b.boot)]
        _, cov = mean_cov(d, 7)
        for v in VIEWS:
            diff = [y - x for x, y in zip(a.view_boot[v], b.view_boot[v])]
            e = b.point[v] - a.point[v]
            s = sd(diff)
            lo, hi = e - Z975 * s, e + Z975 * s
            cs = a.view_coefs(v)
            idx = [self.recipe.coefs.index(c) for c in cs]
            p = zero_test_p([est[i] for i in idx], [cov[i * 7 + j] for i in idx for j in idx], len(ids))
            if not p <= self.recipe.alpha:
                lo, hi = min(lo, 0.0), max(hi, 0.0)
            if not (a.zero_p[v] <= self.recipe.alpha and b.zero_p[v] <= self.recipe.alpha):
                ia, ib = a.ci[v], b.ci[v]
                lo, hi = min(lo, ib[0] - ia[1]), max(hi, ib[1] - ia[0])
            sv = site["views"][v]
            self.check.num(f"{where}.views.{v}.estimate", sv["estimate"], e)
            self.check.num(f"{where}.views.{v}.se", sv["se"], s)
            self.check.num(f"{where}.views.{v}.ci95[0]", sv["ci95"][0], lo)
            self.check.num(f"{where}.views.{v}.ci95[1]", sv["ci95"][1], hi)
            self.check.num(f"{where}.views.{v}.p", sv["p"], p)

    # ------------------------------------------------------ rank sets

    def rank_sets(self, board):
        ids = board["views"]["composite"]
        n = len(ids)
        fits = [self.fit(i) for i in ids]
        alpha = self.recipe.family_alpha
        for v in VIEWS:
            est = [f.point[v] for f in fits]
            reps = [f.view_boot[v] for f in fits]
            floor = [not (f.zero_p[v] <= self.recipe.alpha) for f in fits]
            z = []
            for r in reps:
                m = sum(r) / len(r)
                z.append([x - m for x in r])
            se = [[0.0] * n for _ in range(n)]
            for i in range(n):
                for j in range(i + 1, n):
                    se[i][j] = se[j][i] = sd([y - x for x, y in zip(reps[j], reps[i])])
            marg, sim = step_down_sets(est, z, se, alpha, floor)
            for i, rid in enumerate(ids):
                rec = self.records[rid]
                r = rec["rank"][v]
                where = f"data/runs/{rid}.json"
                want = [min(marg[i][0], r), max(marg[i][1], r)]
                self.check.same(f"{where}: rank_set.{v}", rec["rank_set"][v], want)
                want = [min(sim[i][0], r), max(sim[i][1], r)]
                self.check.same(f"{where}: board_rank_set.{v}", rec["board_rank_set"][v], want)


def lse(lps):
    xs = [x for x in lps if x is not None]
    top = max(xs)
    return top + math.log(sum(math.exp(x - top) for x in xs))


def step_down_sets(est, z, se, alpha, floor):
    """The marginal and simultaneous rank sets (stats.RankSetsFunc), folding every undecided pair at every step."""
    n, B = len(est), len(z[0])

    def tstat(j, k):
        d, s = est[j] - est[k], se[j][k]
        if s == 0:
            return 0.0 if d == 0 else math.copysign(math.inf, d)
        return d / s

    def decides(j, k, c):
        t = tstat(j, k)
        return (t > c and not floor[j]) or (t < -c and not floor[k])

    def crit(active_pairs):
        t = [0.0] * B
        for j, k in active_pairs:
            s = se[j][k]
            if s == 0:
                continue
            inv = 1 / s
            zj, zk = z[j], z[k]
            for b in range(B):
                v = abs(zj[b] - zk[b]) * inv
                if v > t[b]:
                    t[b] = v
        return quantile7(sorted(t), 1 - alpha)

    def rank_set(j, c):
        lo, hi = 1, n
        for k in range(n):
            if k != j and decides(j, k, c):
                if tstat(j, k) > 0:
                    lo += 1
                else:
                    hi -= 1
        return [lo, hi]

    marg = []
    for j in range(n):
        active = [k for k in range(n) if k != j]
        while True:
            c = crit([(j, k) for k in active])
            decided = [k for k in active if decides(j, k, c)]
            if not decided:
                break
            active = [k for k in active if k not in decided]
        marg.append(rank_set(j, c))
    active = {(j, k) for j in range(n) for k in range(n) if j != k}
    while True:
        c = crit(sorted(active))
        decided = {(j, k) for (j, k) in active if j < k and decides(j, k, c)}
        if not decided:
            break
        active -= decided | {(k, j) for (j, k) in decided}
    return marg, [rank_set(j, c) for j in range(n)]


def main(argv):
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("site", help="the built site's folder")
    ap.add_argument("--runs", help="a folder holding <id>/<scored file> for every run, when the site links them elsewhere")
    args = ap.parse_args(argv)
    try:
        site = Site(args.site, args.runs)
        done = []
        for s in site.summaries:
            rec = site.records[s["id"]]
            if not rec["scored"] or not rec.get("fit"):
                continue
            method = rec["fit"]["method"]
            if method == "closed-form" or method == "firth":
                site.fit(s["id"])
                done.append(s["id"])
                print(f"reproduce.py: {s['id']}: {method} coefficients and views agree", flush=True)
        for s in site.summaries:
            rec = site.records[s["id"]]
            d = rec.get("intervention_difference")
            if d:
                site.compare(f"data/runs/{s['id']}.json: intervention_difference", d["default"], s["id"], d)
                print(f"reproduce.py: {s['id']} against {d['default']}: paired differences agree", flush=True)
            d = rec.get("variant_difference")
            if d and d.get("views"):
                site.compare(f"data/runs/{s['id']}.json: variant_difference", d["explicit"], d["implicit"], d)
                print(f"reproduce.py: {s['id']}: {d['implicit']} against {d['explicit']}: paired differences agree", flush=True)
        for board in site.lb["boards"]:
            if board["has_ranks"]:
                site.rank_sets(board)
                print(f"reproduce.py: board {board['id']}: rank sets agree", flush=True)
    except Mismatch as e:
        print(f"reproduce.py: MISMATCH {e}", file=sys.stderr)
        return 1
    except (OSError, KeyError, ValueError) as e:
        print(f"reproduce.py: cannot read the site: {e!r}", file=sys.stderr)
        return 2
    print(f"reproduce.py: all {site.check.count} numbers agree ({len(done)} runs recomputed)")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
