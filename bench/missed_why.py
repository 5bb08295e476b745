"""Why each hand tile photo_eval counts as missed was missed (a diagnostic, not a benchmark).

Usage (tuning seeds only)::

    nice -n 10 python bench/missed_why.py 1030000 100 > why.json 2> why.txt

Reads each scene as photo_eval does (`read_photo`, JPEG at 90), with the steps of
`agari.vision.locate` wrapped to keep what its first call saw, and puts each missed
tile (no final box at IoU 0.5) in one group: ``lost-after-locate`` (locate boxed it at
IoU 0.5; a later step or retry loosened it), ``spares-replaced``, ``classical-lost-STEP``
(a classical box fitted it and the contest, hold or net fit removed it),
``core-no-company`` (a lone net quad the judge did not vouch for),
``core-covered-by-box`` (a net quad fitted it and a kept box covered it; with
the box-to-quad area and whether `net_fit` would dispute it), ``core-lost-in-parts``,
``loose-or-merged`` (only a net quad or box at IoU 0.25-0.5) and ``nothing``.
"""
import json
import sys
from collections import Counter
from dataclasses import replace

import cv2
import numpy as np

sys.path.insert(0, "bench")
import importlib  # noqa: E402

import photo_eval as pe  # noqa: E402
from agari.datasets.scene import SceneConfig, render_scene  # noqa: E402
from agari.engine.rules import Rules  # noqa: E402
from agari.models import TileClassifier  # noqa: E402

from agari.pipeline import DEFAULT_RETRY, PipelineConfig, read_photo  # noqa: E402

L = importlib.import_module('agari.vision.locate')
from agari.vision.cores import in_company  # noqa: E402
from agari.vision.fill import HAND_FILL  # noqa: E402
from agari.vision.layout import DEFAULT_LAYOUT  # noqa: E402
from agari.vision.layout_extras import ExtrasConfig  # noqa: E402

REC = []


def box_of(q):
    q = np.asarray(q, dtype=np.float64)
    x0, y0 = q.min(axis=0)
    x1, y1 = q.max(axis=0)
    return (float(x0), float(y0), float(x1 - x0), float(y1 - y0))


orig_propose, orig_stand, orig_refit = L.propose, L.standing_proposals, L.refit
orig_core, orig_arrange, orig_spares = L.core_proposals, L.arrange, L.settle_spares
orig_judged, orig_loose = L.judged_parts, L.loose_fits


def cur():
    return REC[-1]


def propose(*a, **k):
    REC.append({"classical": [], "raw_cores": None})
    out = orig_propose(*a, **k)
    cur()["props"] = list(out)
    return out


def standing(*a, **k):
    out = orig_stand(*a, **k)
    cur()["stand"] = list(out)
    return out


def judged(bgr, cores, judge, cfg):
    cur()["raw_cores"] = list(cores)
    out = orig_judged(bgr, cores, judge, cfg)
    cur()["cores"] = list(out)
    return out


def refit(props, cores, scale, cfg):
    out = orig_refit(props, cores, scale, cfg)
    cur()["pre_refit"] = list(props)
    cur()["post_refit"] = list(out)
    return out


def loose(kept, found, scores, cfg):
    out = orig_loose(kept, found, scores, cfg)
    free = orig_loose(kept, found, scores, replace(cfg, photo_ratio=None))
    nets = [f for f in found if not f.face_down]
    from agari.vision.quads import quad_area, quad_overlap
    ratios = []
    for p in kept:
        if p.face_down:
            continue
        over = [n for n in nets if quad_overlap(n.quad, p.quad) > cfg.overlap]
        if len(over) == 1:
            ratios.append(quad_area(p.quad) / max(quad_area(over[0].quad), 1e-6))
    cur()["fit_ratio"] = float(np.median(ratios)) if ratios else None
    cur()["fit_blocked"] = not out and bool(free)
    cur()["fit_free"] = free
    return out


def core(cores, existing, scale, config, contest=None, vouch=None, hold=None, fits=None):
    r = cur()
    r["scale"] = scale
    r.setdefault("cores", list(cores))
    r["company"] = in_company(cores, config.cores.company) if config.cores.company else cores
    r["existing"] = list(existing)

    def wrap(name, fn):
        if fn is None:
            return None

        def f(disputes):
            lost = fn(disputes)
            r[name] = [(p, rv) for p, rv in disputes]
            r[name + "_lost"] = list(lost)
            return lost
        return f
    kept, added = orig_core(cores, existing, scale, config, wrap("contest", contest), vouch,
                            wrap("hold", hold), wrap("fits", fits))
    r["kept"], r["added"] = list(kept), list(added)
    return kept, added


def arrange(props, *, scale, cfg):
    out = orig_arrange(props, scale=scale, cfg=cfg)
    cur()["arranged"] = list(out)
    cur()["scale"] = scale
    return out


def spares(bgr, dets, cores, reader, config):
    out = orig_spares(bgr, dets, cores, reader, config=config)
    cur()["spared"] = list(out)
    return out


L.propose, L.standing_proposals, L.refit = propose, standing, refit
L.core_proposals, L.arrange, L.settle_spares = core, arrange, spares
L.judged_parts, L.loose_fits = judged, loose


def best(tbox, boxes):
    b, bi = -1, 0.0
    for i, x in enumerate(boxes):
        v = pe._iou(tbox, x)
        if v > bi:
            b, bi = i, v
    return b, bi


def why(t, r, final_boxes):
    tb = t.box
    s = r.get("scale", 1.0)
    pbox = lambda p: box_of(p.quad / s)  # noqa: E731
    if "arranged" not in r:
        return "no-locate", {}
    loc = [d.box for d in r.get("spared", r["arranged"])]
    i, v = best(tb, loc)
    if v >= 0.5:
        return "lost-after-locate", {"iou": v}
    arr = [d.box for d in r["arranged"]]
    if best(tb, arr)[1] >= 0.5:
        return "spares-replaced", {}
    props = r.get("pre_refit", r["props"] + r.get("stand", []))
    info = {}
    pi, pv = best(tb, [pbox(p) for p in props])
    info["prop_iou"] = round(pv, 2)
    if pv >= 0.5:
        p = props[pi]
        # Identity, not ==: proposals hold numpy arrays, whose == is elementwise.
        if not any(x is p for x in r.get("post_refit", props)):
            return "classical-refit", info
        for step in ("contest", "hold", "fits"):
            if any(x is p for x in r.get(step + "_lost", [])):
                return "classical-lost-" + step, info
        if any(x is p for x in r.get("kept", [])):
            return "classical-kept-but-dropped-by-rows?", info
        return "classical-other", info
    cores = r.get("cores", [])
    ci, cv = best(tb, [box_of(c.quad) for c in cores])
    info["core_iou"] = round(cv, 2)
    raw = r.get("raw_cores") or []
    info["raw_iou"] = round(best(tb, [box_of(c.quad) for c in raw])[1], 2)
    if cv >= 0.5:
        c = cores[ci]
        info["core_score"] = round(float(c.score), 2)
        info["face_down"] = bool(c.face_down)
        if not any(c is x for x in r["company"]):
            return "core-no-company", info
        # which kept proposal covers it
        qb = box_of(c.quad)
        kept = r.get("kept", [])
        ki, kv = best(qb, [pbox(p) for p in kept])
        info["cover_iou"] = round(kv, 2)
        from agari.vision.quads import quad_overlap
        cov = [p for p in kept if quad_overlap(c.quad * np.float32(s), p.quad) > 0.3]
        info["n_cover"] = len(cov)
        if cov:
            inf = [p for p, _ in r.get("fit_free", [])]
            info["in_fit_free"] = any(any(p is x for x in inf) for p in cov)
            info["fit_blocked"] = r.get("fit_blocked")
            info["fit_ratio"] = r.get("fit_ratio")
            info["cov_area_ratio"] = round(float(np.mean(
                [cv2.contourArea(p.quad.astype(np.float32)) for p in cov])
                / max(cv2.contourArea((c.quad * np.float32(s)).astype(np.float32)), 1e-6)), 2)
            return "core-covered-by-box", info
        return "core-other", info
    if info["raw_iou"] >= 0.5:
        return "core-lost-in-parts", info
    # merged: a core or proposal overlapping strongly but iou < .5
    allb = [box_of(c.quad) for c in cores] + [pbox(p) for p in props]
    ov = 0.0
    for b in allb:
        ix = max(0, min(tb[0] + tb[2], b[0] + b[2]) - max(tb[0], b[0]))
        iy = max(0, min(tb[1] + tb[3], b[1] + b[3]) - max(tb[1], b[1]))
        ov = max(ov, ix * iy / (tb[2] * tb[3]))
    info["cover"] = round(ov, 2)
    if max(cv, pv) >= 0.25 or ov >= 0.6:
        return "loose-or-merged", info
    return "nothing", info


def main():
    seed0, n = int(sys.argv[1]), int(sys.argv[2])
    rules = Rules.preset("tenhou")
    from agari.vision.locate import HAND_LOCATE
    layout = replace(DEFAULT_LAYOUT, extras=ExtrasConfig(ura_below=True))
    config = PipelineConfig(layout=layout, fill=HAND_FILL, reframe=None, locate=HAND_LOCATE,
                            retry=DEFAULT_RETRY)
    clf = TileClassifier.load(None)
    cfg = SceneConfig(width=1920, height=1080, kinds=("shown", "standing", "table"), fit_prob=1.0)
    rows, counts = [], Counter()
    for seed in range(seed0, seed0 + n):
        image, ann = render_scene(seed, cfg)
        if ann.hand is None:
            continue
        truth = pe.expected_layout(ann.hand, ann.win, ann.tiles)
        situation, _ = pe.situation_for(truth, rules)
        data = cv2.imencode(".jpg", image, [cv2.IMWRITE_JPEG_QUALITY, 90])[1]
        photo = cv2.imdecode(data, cv2.IMREAD_COLOR)
        REC.clear()
        try:
            res = read_photo(photo, situation, classifier=clf, config=config)
            final = [d.box for d in res.detections]
        except Exception as e:  # noqa: BLE001
            final = []
            print(seed, "error", e, file=sys.stderr)
        r = REC[0] if REC else {}
        for t in ann.tiles:
            if t.role == "other" or t.visible < 0.5 or t.label == "back":
                continue
            if best(t.box, final)[1] >= 0.5:
                continue
            reason, info = why(t, r, final)
            fi, fv = best(t.box, final)
            info["final_iou"] = round(fv, 2)
            if fi >= 0:
                info["final_box"] = [round(v) for v in final[fi]]
                info["final_read"] = str(res.read[fi]) + "/" + res.roles[fi]
            info["truth_box"] = [round(v) for v in t.box]
            info.update(seed=seed, role=t.role, label=t.label, sideways=t.sideways,
                        short=round(min(t.box[2], t.box[3]), 1), calls=len(REC))
            counts[reason] += 1
            rows.append((reason, info))
            print(seed, reason, info, file=sys.stderr)
    print(json.dumps({"counts": counts, "rows": rows}, indent=0))


if __name__ == '__main__':
    main()
