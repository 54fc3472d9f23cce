"""A declaration choosing who sets the first tile (``declarations[].options[].lead``,
``engine.mechanisms.declarations``): a constructed deal with its exact record, the next
round's lead counted from the setter, playouts read by verify and the rulebook alike, a
planted fault, the fixed policy's choice and the load-time refusals."""

from __future__ import annotations

from types import SimpleNamespace

import pytest

from dominorules import api, records
from dominorules.engine.mechanisms import declarations
from dominorules.engine.mechanisms.environment import option_names
from dominorules.records import check_file_strict

NAME = "house/partner-sets"
HANDS = ["0-0 0-1 0-2 0-3 0-4 0-5", "1-1 1-2 1-3 1-4 1-5 1-6",
         "2-2 2-3 2-4 2-5 2-6 3-3", "3-4 3-5 3-6 4-4 4-5 4-6"]


def _shown(hand: str) -> list[str]:
    """A hand as its opening moves read (the high half first)."""
    return sorted([f"{max(t)}-{min(t)}" for t in (x.split("-") for x in hand.split())]
                  + ["draw"])


def _match(option: str):
    game = api.load_game(NAME)
    state = game.new_match(4, 0, deals=[api.Deal.of(HANDS, "0-6 5-5 5-6 6-6", leader=0)])
    assert [str(a) for a in state.legal_actions()] == ["declare me", "declare partner"]
    state.apply(f"declare {option}")
    return state


def test_the_partner_opposite_sets_the_first_tile_and_play_goes_on_from_them():
    state = _match("partner")
    assert state.current_player == 2
    assert sorted(str(a) for a in state.legal_actions()) == _shown(HANDS[2])
    state.apply("3-3")
    assert state.current_player == 3   # play goes on from the setter (to the left)
    deal = next(e for e in state.record if e["event"] == "deal")
    assert deal["leader"] == 0   # the seat that chose, as the lead rule named it
    assert [e for e in state.record if e["event"] in ("declare", "place")] == [
        {"event": "declare", "player": 0, "declaration": "setter", "option": "partner"},
        {"event": "place", "player": 2, "tile": [3, 3], "end": None},
    ]


def test_keeping_the_lead_sets_it_oneself():
    state = _match("me")
    assert state.current_player == 0
    assert sorted(str(a) for a in state.legal_actions()) == _shown(HANDS[0])


def test_lead_of_is_taken_modulo_the_players():
    game = api.load_game(NAME)
    partner = game.rules.declarations[0].options[1]
    assert [declarations.lead_of(partner, {"players": 4, "seat": s}) for s in range(4)] \
        == [2, 3, 0, 1]
    assert declarations.lead_of(game.rules.declarations[0].options[0],
                                {"players": 4, "seat": 1}) is None


@pytest.mark.parametrize(("hand", "pick"), [(((0, 0), (1, 2)), 0), (((0, 1), (1, 2)), 1)])
def test_the_fixed_policy_keeps_the_lead_with_a_double_and_hands_it_over_without(hand, pick):
    decl = api.load_game(NAME).rules.declarations[0]
    match = SimpleNamespace(players=4, round=1, target=100, scores=[0, 0], values={})
    env = option_names(match, hand, 0)
    assert declarations.fixed(decl, env) == pick


def _record(seed: int):
    return api.play_match(api.load_game(NAME), 4, seed, bots="random", trace=True)


def test_playouts_verify_and_the_next_lead_counts_from_the_setter(tmp_path):
    events = _record(4).events
    assert events == _record(4).events
    moved = 0
    for i, e in enumerate(events):
        if e["event"] == "declare" and e["option"] == "partner":
            setter = (e["player"] + 2) % 4
            assert events[i + 1]["player"] == setter
            later = next((d for d in events[i:] if d["event"] == "deal"), None)
            if later is not None:   # pagat's rotate, one seat on from the setter
                assert later["leader"] == (setter + 1) % 4
                moved += 1
    assert moved
    handed = sum(e["event"] == "declare" and e["option"] == "partner" for e in events)
    assert _record(4).counters["leads_handed"] == handed   # compare's counter
    path = tmp_path / "r.jsonl"
    records.write_records(str(path), events)
    assert list(records.verify_file(str(path))) == []
    assert list(check_file_strict(str(path))) == []


def test_verify_and_the_rulebook_reject_the_wrong_setter(tmp_path):
    events = [dict(e) for e in _record(4).events]
    at = next(i for i, e in enumerate(events)
              if e["event"] == "declare" and e["option"] == "partner")
    events[at]["option"] = "me"   # the chooser then should have set the first tile
    path = tmp_path / "bad.jsonl"
    records.write_records(str(path), events)
    assert list(records.verify_file(str(path))) and list(check_file_strict(str(path)))


@pytest.mark.parametrize(("extra", "message"), [
    ("opening:\n  tile: highest_double\n", "opening names which tile opens"),
    ("deal:\n  hand_size: 7\n  turn_up: true\n", "deal.turn_up settles the leader"),
])
def test_a_lead_option_the_opening_settles_first_is_refused(extra, message, tmp_path):
    path = tmp_path / "settled.yaml"
    path.write_text(f"title: settled\nextends: {NAME}\n{extra}", encoding="utf-8")
    with pytest.raises(Exception) as err:
        api.load_game(str(path))
    assert message in str(err.value) and "partner-sets.yaml:" in str(err.value)


def test_a_lead_option_after_a_placement_is_refused(tmp_path):
    path = tmp_path / "late.yaml"
    path.write_text("title: late\nextends: pagat\ndeclarations:\n  - name: late\n"
                    "    when: after_place\n    options:\n      - name: pass_it\n"
                    "        lead: \"seat + 1\"\n      - name: keep\n", encoding="utf-8")
    with pytest.raises(Exception) as err:
        api.load_game(str(path))
    assert "late.yaml:8:" in str(err.value) and "made at after_place" in str(err.value)
