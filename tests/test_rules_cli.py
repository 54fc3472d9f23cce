"""`dominorules list` and `dominorules validate`: output, exit codes, never a traceback."""

from __future__ import annotations

from pathlib import Path

from click.testing import CliRunner

from dominorules.cli import main
from dominorules.rules import builtin_rulesets

INVALID = Path(__file__).parent / "rulesets" / "invalid"


def _run(*args: str):
    return CliRunner().invoke(main, list(args))


def test_list_shows_every_builtin_with_its_description():
    result = _run("list")
    assert result.exit_code == 0
    lines = result.output.splitlines()
    infos = builtin_rulesets()
    assert len(lines) == len(infos)
    for line, info in zip(lines, infos, strict=True):
        assert line.split()[0] == info.name
        assert line.endswith(info.description)
    assert any(line.startswith("house/") for line in lines)


def test_validate_ok():
    result = _run("validate", "pagat", "house/empty-boneyard")
    assert (result.exit_code, result.output) == (0, "ok: pagat\nok: house/empty-boneyard\n")


def test_validate_reports_every_diagnostic_with_source_and_caret():
    bad = str(INVALID / "unknown-key.yaml")
    result = _run("validate", "pagat", bad)
    assert result.exit_code == 1
    assert result.stdout == "ok: pagat\n"
    assert result.stderr == (
        f"{bad}:4:3: error: unknown key 'hand_sise' in deal [deal.hand_sise]\n"
        "    4 |   hand_sise: 7\n"
        "      |   ^\n"
        "  hint: did you mean 'hand_size'?\n")


def test_validate_underlines_the_bad_character_inside_an_expression():
    bad = str(INVALID / "expr-unknown-name.yaml")
    result = _run("validate", bad)
    assert result.exit_code == 1
    assert result.stderr.splitlines()[:3] == [
        f"{bad}:4:15: error: unknown name 'oponents'; scoring offers: blocked, boneyard, "
        "boneyard_pips, boneyard_value, both_ends, drawn, end_total, ends, last_player, last_tile, "
        "opponents, "
        "passes, players, round, seats, sides, target, winner [scoring.domino]",
        "    4 |   domino: sum(oponents.pips)",
        "      |               ^^^^^^^^",
    ]


def test_validate_usage_error_exits_2():
    result = _run("validate")
    assert result.exit_code == 2
    assert "Missing argument 'FILE_OR_NAME...'" in result.output


def test_validate_directory_binary_and_missing_files(tmp_path):
    binary = tmp_path / "blob.yaml"
    binary.write_bytes(b"\x89PNG\r\n\x1a\n\0\0")
    result = _run("validate", str(tmp_path), str(binary), "pagatt")
    assert result.exit_code == 1
    assert result.exception is None or isinstance(result.exception, SystemExit)
    assert result.stderr == (
        f"{tmp_path}: error: {tmp_path} is a directory, not a ruleset file\n"
        f"  hint: give the YAML files inside it, e.g. {tmp_path}/*.yaml\n"
        f"{binary}: error: {binary} is a binary file, not YAML text\n"
        "  hint: name a ruleset's .yaml file, or a builtin name (`dominorules list`)\n"
        "pagatt: error: no builtin ruleset or file named 'pagatt'\n"
        "  hint: did you mean 'pagat'? (`dominorules list` shows them all)\n")


def test_every_invalid_case_fails_cleanly():
    cases = sorted(str(p) for p in INVALID.glob("*.yaml"))
    result = _run("validate", *cases)
    assert result.exit_code == 1
    assert isinstance(result.exception, SystemExit)
    assert result.stdout == ""
    assert "Traceback" not in result.stderr


def test_list_describes_a_house_rule_without_description_by_what_it_changes(
        tmp_path, monkeypatch):
    import dominorules.rules as rules
    from dominorules.rules.resources import BuiltinInfo

    path = tmp_path / "no-description.yaml"
    path.write_text("title: Quiet\nextends: pagat\ndrawing: {reserve: 0}\n", encoding="utf-8")
    monkeypatch.setattr(rules, "builtin_files", lambda: [BuiltinInfo(str(path), path, "")])
    (info,) = rules.builtin_rulesets()
    assert info.description == "As pagat, but with a different boneyard reserve."
