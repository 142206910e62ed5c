"""A misspelt option names the closest option of its command, in one error line, exit code 2 (issue 46)."""

from __future__ import annotations

import argparse

import pytest

from clanka_nb._cli import _parser
from clanka_nb.cli import main

USAGE = 2
# Each command's positional arguments, so that only the misspelt option is left over.
POSITIONALS = {"chunk": ["."], "files": ["."], "sweep": ["."], "explain": [".", "a.ts"], "churn": ["."],
               "index": ["."], "cache": ["info"], "lab": []}  # fmt: skip


def error_line(capsys: pytest.CaptureFixture[str], *argv: str) -> str:
    """The one error line of a usage error (exit 2, nothing on stdout, no traceback)."""
    with pytest.raises(SystemExit) as stop:
        main(list(argv))
    assert stop.value.code == USAGE
    out, err = capsys.readouterr()
    lines = err.strip().splitlines()
    assert out == "" and len(lines) == 1 and "Traceback" not in err, err
    assert lines[0].startswith("clanka-nb: error: ")
    return lines[0]


def _options() -> list[tuple[str, str]]:
    """Every command's own long options (not --help)."""
    (subcommands,) = [action for action in _parser.build()._actions if isinstance(action, argparse._SubParsersAction)]
    commands = subcommands.choices
    assert set(commands) == set(POSITIONALS), "a new command: add its positional arguments to POSITIONALS"
    return [(name, option) for name, command in commands.items() for action in command._actions
            for option in action.option_strings if option.startswith("--") and option != "--help"]  # fmt: skip


def test_the_issue_misspelling(capsys) -> None:
    message = error_line(capsys, "chunk", "X", "--chunk-sise", "20")
    assert "unrecognized arguments: --chunk-sise 20; did you mean --chunk-size?" in message
    assert "clanka-nb chunk --help" in message  # the command's own help, where its options are


@pytest.mark.parametrize(("command", "option"), _options())
def test_every_option_of_every_command_is_suggested_when_misspelt(capsys, command: str, option: str) -> None:
    middle = len(option) // 2 + 1
    wrong = option[:middle] + option[middle] + option[middle:]  # one letter typed twice: never a prefix of it
    message = error_line(capsys, command, *POSITIONALS[command], wrong)
    assert f"did you mean {option}?" in message


def test_two_misspellings_name_both(capsys) -> None:
    message = error_line(capsys, "sweep", ".", "--chunk-sise", "20", "--formt", "csv")
    assert "did you mean --chunk-size for --chunk-sise, --format for --formt?" in message


def test_an_option_written_with_its_value_after_an_equals_sign(capsys) -> None:
    assert "did you mean --chunk-size?" in error_line(capsys, "chunk", ".", "--chunk-sise=20")


def test_an_ambiguous_abbreviation_names_the_closest(capsys) -> None:
    message = error_line(capsys, "chunk", ".", "--chunk", "20")
    assert "could match --chunk-size, --chunk-overlap; did you mean --chunk-size?" in message


def test_nothing_close_says_where_the_options_are(capsys) -> None:
    message = error_line(capsys, "files", ".", "--zzzzzz")
    assert "did you mean" not in message and message.endswith("; see 'clanka-nb files --help'")


def test_a_top_level_option_before_the_command(capsys) -> None:
    assert "did you mean --version?" in error_line(capsys, "--verison", "chunk", ".")
