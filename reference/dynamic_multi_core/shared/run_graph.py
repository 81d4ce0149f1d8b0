#!/usr/bin/env python3
"""ACL graphs from torch: captures add, matmul and the mix kernel matmul_add
with torch.npu.graph into a torch.npu.NPUGraph, replays it, and checks every
replay against the same launches issued directly (bit for bit, torch.equal),
after checking the direct results against a host reference with the seed's
tolerances. Also reports the simulated host-side saving: a replay pays the
launch overhead once (docs/cost-model.md).

Needs torch with a torch_npu: on ptosim the simulated one,
`ptolab run --sim -- python3 run_graph.py` (docs/torch_npu.md)."""
import sys
from pathlib import Path

HERE = Path(__file__).absolute().parent  # not resolved: the script is linked into each target directory
sys.path.insert(0, str(HERE.parents[1] / "common"))
import pto_demo_utils as utils  # noqa: E402

ROWS, H = 77, 256                 # add: two 32-row tiles and a tail
MM = (100, 70, 64)                # matmul: tails in m and n
MIX = (64, 128, 128)              # matmul_add: two tiles


def main():
    here = HERE
    target = here.name
    args = utils.arg_parser(__doc__).parse_args()
    ptolab = utils.use_target(target)  # before torch_npu loads the simulator: the SoC is chosen once
    libdir = utils.build(here)
    results = utils.Results(f"dynamic_multi_core/{target}/run_graph.py", "torch.npu.NPUGraph (ACL graph capture)")
    try:
        import numpy as np
        import torch
        import torch_npu  # noqa: F401
    except ImportError as e:
        print(f"FAIL setup: torch with torch_npu is needed ({e}); on ptosim run "
              f"`ptolab run --sim -- python3 run_graph.py`")
        return 1
    sys.path.insert(0, str(here))
    import cases
    import launchers
    launch = launchers.Ctypes(libdir, ["add", "matmul", "matmul_add"])
    rng = np.random.default_rng(11)
    npu = lambda a: torch.from_numpy(np.ascontiguousarray(a)).to("npu")  # noqa: E731
    x, y = npu(utils.exact_inputs(rng, (ROWS, H))), npu(utils.exact_inputs(rng, (ROWS, H)))
    m, n, k = MM
    a, b = npu(utils.exact_inputs(rng, (m, k))), npu(utils.exact_inputs(rng, (k, n)))
    mm, mn, mk = MIX
    ma, mb = npu(utils.exact_inputs(rng, (mm, mk))), npu(utils.exact_inputs(rng, (mk, mn)))
    md = npu(utils.exact_inputs(rng, (mm, mn)).astype(np.float32))
    add_bd = cases.block_dim_for(cases.ceil_div(ROWS, cases.ADD_ROWS), ptolab.vector_core_count())
    mm_bd = cases.block_dim_for(cases.ceil_div(m, 64) * cases.ceil_div(n, 64), ptolab.cube_core_count())
    mix_bd = cases.block_dim_for(cases.ceil_div(mm, 64) * cases.ceil_div(mn, 64), cases.mix_groups(ptolab))
    ws = torch.empty(mix_bd * 64 * 64, device="npu", dtype=torch.float32)
    z = torch.empty(ROWS, H, device="npu", dtype=torch.float16)
    c = torch.empty(m, n, device="npu", dtype=torch.float32)
    mo = torch.empty(mm, mn, device="npu", dtype=torch.float32)
    outs = (z, c, mo)

    def issue():
        stream = torch.npu.current_stream()  # the capture stream inside torch.npu.graph
        launch.add(add_bd, stream, x, y, z, ROWS)
        launch.matmul(mm_bd, stream, a, b, c, m, n, k)
        launch.matmul_add(mix_bd, stream, ma, mb, md, ws, mo, mm, mn, mk)

    def poison():
        for o in outs:
            o.fill_(float("nan"))  # a replay that skipped a kernel leaves NaN behind

    poison()
    issue()
    torch.npu.synchronize()
    direct = [o.cpu() for o in outs]
    tag = f"dynamic/{target} graph"

    def reference():
        want_add = (x.cpu().float() + y.cpu().float()).half()
        want_mm = a.cpu().float() @ b.cpu().float()
        want_mix = ma.cpu().float() @ mb.cpu().float() + md.cpu()
        got = {}
        for name, d, want, dt in (("add", direct[0], want_add, "float16"), ("matmul", direct[1], want_mm, "float32"),
                                  ("matmul_add", direct[2], want_mix, "float32")):
            got[name + "_max_abs_err"] = utils.compare(ptolab, d.numpy(), want.numpy(), dt)["max_abs_err"]
        return got

    results.check(f"{tag} direct add, matmul, matmul_add vs host reference", reference)

    g = torch.npu.NPUGraph()
    with torch.npu.graph(g):
        issue()

    def replays():
        for r in range(3):
            poison()
            g.replay()
            torch.npu.synchronize()
            for name, o, d in zip(("add", "matmul", "matmul_add"), outs, direct):
                assert torch.equal(o.cpu(), d), f"replay {r + 1}: {name} differs from the direct launch"
        return {"replays": 3}

    results.check(f"{tag} three replays bit-identical to the direct launches", replays)

    def new_inputs():
        # The graph holds addresses, not values: new data in the same tensors is what the next replay reads.
        x.copy_(npu(utils.exact_inputs(rng, (ROWS, H))))
        a.copy_(npu(utils.exact_inputs(rng, (m, k))))
        poison()
        issue()
        torch.npu.synchronize()
        again = [o.cpu() for o in outs]
        poison()
        g.replay()
        torch.npu.synchronize()
        for name, o, d in zip(("add", "matmul", "matmul_add"), outs, again):
            assert torch.equal(o.cpu(), d), f"{name}: the replay on new inputs differs from the direct launch"
        assert not torch.equal(again[0], direct[0]), "the new inputs changed nothing: the check could not fail"

    results.check(f"{tag} replay on new inputs bit-identical to the direct launches", new_inputs)

    def launch_saving():
        start, end = torch.npu.Event(enable_timing=True), torch.npu.Event(enable_timing=True)
        start.record()
        issue()
        end.record()
        direct_us = start.elapsed_time(end) * 1e3
        start.record()
        g.replay()
        end.record()
        replay_us = start.elapsed_time(end) * 1e3
        # Three kernels: the replay pays the 1 us launch overhead of the
        # profiles once instead of three times (docs/cost-model.md).
        saved = direct_us - replay_us
        assert abs(saved - 2.0) < 1e-6, f"simulated saving {saved:.6f} us, expected 2 launch overheads (2 us)"
        print(f"  simulated time: direct {direct_us:.3f} us, replay {replay_us:.3f} us "
              f"(saves {saved:.3f} us of launch overhead; simulated, not measured on an NPU)")
        return {"direct_sim_us": round(direct_us, 4), "replay_sim_us": round(replay_us, 4)}

    results.check(f"{tag} a replay pays the launch overhead once (simulated time)", launch_saving)
    g.reset()
    return results.finish(args.json)


if __name__ == "__main__":
    sys.exit(main())
