"""Which device backend ptolab picks (PTOLAB_DEVICE, torch_npu, NPU_DEVICE) and
that both backends answer the same calls. No NPU here: torch and torch_npu are
stand-in module objects, so this checks the selection rules, not an NPU."""
import sys
import types

import pytest

import ptolab
from ptolab import device

NOT_SIM_OR_NPU = "PTOLAB_DEVICE={!r} is not 'sim' or 'npu'; unset it to choose automatically"
NO_TORCH_NPU = ("PTOLAB_DEVICE=npu but torch_npu is not importable or reports no NPU; "
                "source CANN's setenv script and install torch_npu, or unset PTOLAB_DEVICE")
BAD_NPU_DEVICE = "NPU_DEVICE={!r} is not npu:N or N; pick an idle device from npu-smi info"


def stand_in_torch(available=True, simulated=False):
    """A torch module object whose torch.npu records set_device; None when it reports no NPU."""
    torch = types.ModuleType("torch")
    torch.set_devices = []

    def is_available():
        if isinstance(available, Exception):
            raise available
        return available

    torch.npu = types.SimpleNamespace(is_available=is_available, set_device=torch.set_devices.append)
    torch_npu = types.ModuleType("torch_npu")
    if simulated:
        torch_npu.__ptolab_simulated__ = True
    return torch, torch_npu


def never_asked():
    raise AssertionError("torch_npu was looked for although PTOLAB_DEVICE decided already")


# --- _choose_backend: the rules on an environment --------------------------------

def test_unset_gives_the_simulator_without_an_npu():
    assert device._choose_backend({}, lambda: None).kind == "sim"


def test_unset_gives_npu0_when_torch_npu_reports_one():
    torch, _ = stand_in_torch()
    dev = device._choose_backend({}, lambda: torch)
    assert (dev.kind, dev.index, torch.set_devices) == ("npu", 0, [0])


def test_sim_is_the_simulator_and_never_looks_for_torch_npu_nor_reads_npu_device():
    dev = device._choose_backend({"PTOLAB_DEVICE": "sim", "NPU_DEVICE": "bogus"}, never_asked)
    assert dev.kind == "sim"


def test_npu_is_refused_without_torch_npu():
    with pytest.raises(RuntimeError) as e:
        device._choose_backend({"PTOLAB_DEVICE": "npu"}, lambda: None)
    assert str(e.value) == NO_TORCH_NPU


def test_the_choice_is_read_case_and_space_insensitively():
    torch, _ = stand_in_torch()
    assert device._choose_backend({"PTOLAB_DEVICE": " NPU "}, lambda: torch).kind == "npu"
    assert device._choose_backend({"PTOLAB_DEVICE": "Sim"}, never_asked).kind == "sim"
    assert device._choose_backend({"PTOLAB_DEVICE": ""}, lambda: None).kind == "sim"


@pytest.mark.parametrize("raw, shown", [("gpu", "gpu"), (" CPU ", "cpu"), ("npu:0", "npu:0")])
def test_other_choices_are_refused_before_looking_for_torch_npu(raw, shown):
    with pytest.raises(ValueError) as e:
        device._choose_backend({"PTOLAB_DEVICE": raw}, never_asked)
    assert str(e.value) == NOT_SIM_OR_NPU.format(shown)


@pytest.mark.parametrize("spec, index", [("npu:3", 3), ("7", 7), ("npu:0", 0)])
def test_npu_device_picks_the_index(spec, index):
    torch, _ = stand_in_torch()
    dev = device._choose_backend({"PTOLAB_DEVICE": "npu", "NPU_DEVICE": spec}, lambda: torch)
    assert (dev.kind, dev.index, torch.set_devices, repr(dev)) == ("npu", index, [index], f"ptolab device npu:{index}")


@pytest.mark.parametrize("spec", ["npu", "npu:", "npu:x", "", "one", "npu:1.5"])
def test_a_malformed_npu_device_is_an_error_and_selects_nothing(spec):
    torch, _ = stand_in_torch()
    with pytest.raises(ValueError) as e:
        device._choose_backend({"NPU_DEVICE": spec}, lambda: torch)
    assert str(e.value) == BAD_NPU_DEVICE.format(spec)
    assert torch.set_devices == []


# --- get_device: torch_npu as imported -------------------------------------------

@pytest.fixture
def modules(monkeypatch):
    """Installs stand-in torch / torch_npu modules (None: not importable)."""
    def install(torch, torch_npu):
        monkeypatch.setitem(sys.modules, "torch", torch)
        monkeypatch.setitem(sys.modules, "torch_npu", torch_npu)
    return install


def test_an_importable_torch_npu_with_an_npu_is_chosen(modules, monkeypatch):
    torch, torch_npu = stand_in_torch()
    modules(torch, torch_npu)
    monkeypatch.setenv("NPU_DEVICE", "npu:2")
    assert (ptolab.get_device().kind, torch.set_devices) == ("npu", [2])
    assert ptolab.get_device() is ptolab.get_device()  # chosen once
    assert torch.set_devices == [2]


@pytest.mark.parametrize("case", ["not importable", "ptolab's simulated torch_npu", "no NPU", "is_available raises"])
def test_the_simulator_otherwise_and_npu_refused(modules, monkeypatch, case):
    torch, torch_npu = stand_in_torch(available={"no NPU": False, "is_available raises": RuntimeError("driver")}
                                      .get(case, True), simulated=case == "ptolab's simulated torch_npu")
    modules(torch, None if case == "not importable" else torch_npu)
    assert ptolab.get_device().kind == "sim"
    device._reset_device_for_tests()
    monkeypatch.setenv("PTOLAB_DEVICE", "npu")
    with pytest.raises(RuntimeError) as e:
        ptolab.get_device()
    assert str(e.value) == NO_TORCH_NPU
    assert torch.set_devices == []


def test_a_refused_choice_is_not_remembered(monkeypatch):
    monkeypatch.setenv("PTOLAB_DEVICE", "gpu")
    with pytest.raises(ValueError):
        ptolab.get_device()
    monkeypatch.setenv("PTOLAB_DEVICE", "sim")
    assert ptolab.get_device().kind == "sim"


# --- the backends answer the same calls ------------------------------------------

def public_methods(cls):
    return {n for n, v in vars(cls).items() if callable(v) and not n.startswith("_")}


def test_both_backends_have_the_same_methods():
    assert public_methods(device._Simulator) == public_methods(device._Npu)
    assert public_methods(device._SimEvent) == public_methods(device._NpuEvent)
    for cls in (device._Simulator, device._Npu):
        assert {"kind", "time_source"} <= set(vars(cls))


def test_repeats_and_simulated_mode_per_backend(monkeypatch):
    torch, _ = stand_in_torch()
    npu = device._choose_backend({}, lambda: torch)
    sim = device._choose_backend({}, lambda: None)
    assert (sim.is_simulated(), sim.default_repeats()) == (True, 1)
    assert (npu.is_simulated(), npu.default_repeats()) == (False, 5)
    monkeypatch.setenv("PTO_SIMULATOR", "1")  # torch_npu in front of CANN's CA model
    assert (npu.is_simulated(), npu.default_repeats()) == (True, 1)
