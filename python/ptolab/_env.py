"""Environment variables of the seed's workflow, parsed in one place so every
malformed value is reported the same way: which variable, what it holds, what
it should hold."""
import os


def positive_seconds(name, default):
    raw = os.environ.get(name, "")
    if raw == "":
        return float(default)
    try:
        value = float(raw)
    except ValueError:
        value = -1.0
    if not value > 0 or value == float("inf"):
        raise ValueError(f"{name}={raw!r} is not a positive number of seconds; set it to e.g. {default:g} or unset it")
    return value


def positive_int(name):
    raw = os.environ.get(name, "")
    if raw == "":
        return None
    try:
        value = int(raw)
    except ValueError:
        value = 0
    if value < 1:
        raise ValueError(f"{name}={raw!r} is not a whole number >= 1; set it to e.g. 5 or unset it")
    return value


def flag(name):
    return os.environ.get(name, "") == "1"
