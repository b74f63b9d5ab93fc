"""Stones & Bones at a Discord table, with a tavern mode for game-masters.

The engine (rules/stones_and_bones.py) decides everything; this module draws the table (the
Bones, the bet worked out step by step, the Stones, every purse in coins), offers every OPT of
RULINGS section 5 as a slash-command option, and gives a game-master what a campaign needs:
a table they run without a seat, NPC seats with names, each seat's starting purse, and a ledger
(an embed and a CSV file) when the game ends.

Public decisions sit on the table itself (Engine.open_actions); the Mutiny vote and the
Tide-rise choices are sealed and go to each player by DM (or the **My hand** button).
"""

from __future__ import annotations

import csv
import io
import re
from typing import TYPE_CHECKING, Any

import discord
from discord import app_commands
from discord.ext import commands
from pydantic import BaseModel

from bot.errors import Refusal, guarded
from bot.games import GameSpec
from bot.models import Seat, Table
from bot.render import FIELD_VALUE, clip, seat_names
from bot.seats import find_seat
from rules import stones_and_bones as sb
from rules.stones_and_bones_models import MAX_PURSE, MAX_SEATS, LedgerRow, MutinyView, TurnView
from rules.stones_and_bones_reading import TIER_ABBR, BonesReading, coins, signed_coins

if TYPE_CHECKING:
    from bot.client import Boneyard

#: RULINGS 5.4: «"Mutiny!" button for 60 s after the Captain plunders»
MUTINY_WINDOW = 60
NAME_LIMIT = 32
MONEY_HELP = ("Write an amount as coins, e.g. `12gp 5sp` (units pp, gp, sp, cp), or a whole "
              "number of gold pieces, e.g. `12`.")
_COIN = {"pp": 1000, "gp": 100, "sp": 10, "cp": 1}
_COIN_PART = re.compile(r"\s*(\d{1,10})\s*(pp|gp|sp|cp)\s*,?", re.IGNORECASE)
_BAD_NAME = re.compile(r"[<>@`*_~|#\\\n\r\t]")
TIER_MARK = {"copper": "🟤", "silver": "⚪", "gold": "🟡"}
STATUS_WORDS = {"eliminated": "out of the game", "ashore": "ashore"}


def parse_coins(text: str) -> int:
    """``"12gp 5sp"`` -> 1250 cp; ``"12"`` -> 1200 cp (whole gold pieces). Refuses anything
    else, and amounts outside 1 cp to a million pp, with a short explanation."""
    raw = text.strip()
    if re.fullmatch(r"\d{1,10}", raw):
        amount = int(raw) * _COIN["gp"]
    else:
        parts = _COIN_PART.findall(raw)
        if not parts or _COIN_PART.sub("", raw).strip():
            raise Refusal(f"`{clip(raw, 40)}` is not an amount. {MONEY_HELP}")
        units = [unit.lower() for _, unit in parts]
        if len(set(units)) != len(units):
            raise Refusal(f"Name each coin once in `{clip(raw, 40)}`. {MONEY_HELP}")
        amount = sum(int(n) * _COIN[unit.lower()] for n, unit in parts)
    if not 1 <= amount <= MAX_PURSE:
        raise Refusal(f"A purse holds from 1 cp to {coins(MAX_PURSE)}; `{clip(raw, 40)}` is "
                      f"{coins(amount)}.")
    return amount




def seat_name(table: Table, seat: int | None) -> str:
    return "nobody" if seat is None else table.seats[seat].name


def bones_line(reading: BonesReading) -> str:
    """`12`🟡 `2`🟤 … with the Bane, Blessing and Ill Omens marked on the Bones that make them."""
    shown = []
    for bone in reading.bones:
        marks = ("☠" if bone.bane else "") + ("✚" if bone.blessing else "") + ("◆" if bone.omen else "")
        shown.append(f"`{bone.face:>2}`{TIER_MARK[bone.tier]}{TIER_ABBR[bone.tier]}{marks}")
    return "  ".join(shown)


def legend(reading: BonesReading) -> str:
    marks = [text for on, text in ((reading.ill_omens, "◆ Ill Omens"), (reading.bane, "☠ Bane"),
                                   (reading.blessing, "✚ Blessing")) if on]
    return f" ({' · '.join(marks)})" if marks else ""


def reading_lines(reading: BonesReading, title: str) -> list[str]:
    lines = [f"**{title}**: {bones_line(reading)}{legend(reading)}"]
    lines += [f"• {step}" for step in reading.steps]
    lines.append(f"= **{coins(reading.bet)}**")
    return lines


def turn_lines(table: Table, turn: TurnView) -> list[str]:
    who = seat_name(table, turn.seat)
    role = " (Captain)" if turn.captain else ""
    curse = " · Cursed: no Stone" if turn.cursed else ""
    lines = [f"**{who}**{role}, turn {turn.number}: ante {coins(turn.ante)}{curse}"]
    if turn.bones is not None:
        lines += reading_lines(turn.bones, "The Bones")
    if turn.flown is not None:
        lines += reading_lines(turn.flown, "Flying the Black, the Bones again")
    if turn.plank is not None:
        lines.append(f"**Walking the Plank**, the Bones again: {bones_line(turn.plank)}")
    if turn.paid:
        lines.append(f"Paid into the coffer: {coins(turn.paid)}")
    if turn.stones:
        stones = []
        for stone in turn.stones:
            mark = " ✓ Float" if stone.floats else " ★ Captain's Luck" if stone.luck else ""
            whose = " (pilfered)" if stone.pilfered else ""
            stones.append(f"`{stone.value}`{whose}{mark}")
        label = "Stones" if len(turn.stones) > 1 else "Stone"
        lines.append(f"**{label}**: " + " · ".join(stones))
    lines.append(f"**Outcome**: {seat_names(table, turn.result_text)}")
    return lines


def pirate_line(table: Table, view: sb.StonesAndBonesView, p: Any) -> str:
    name = table.seats[p.seat].name
    marks = ("🏴‍☠️ " if p.captain else "") + ("☠ " if p.cursed else "") + ("▶ " if p.acting else "")
    if p.status != "afloat":
        out = f" · cashed out {coins(p.cashed_out)}" if p.cashed_out else ""
        return f"~~{name}~~ ({STATUS_WORDS[p.status]}){out} · net {p.net_text}"
    fly = "" if p.can_fly else " · flew the Black"
    return f"{marks}**{name}**: {p.purse_text} · net {p.net_text}{fly}"


def mutiny_lines(table: Table, m: MutinyView) -> list[str]:
    lines = [f"Captain **{seat_name(table, m.captain)}**"
             + (f" against Mutineer **{seat_name(table, m.mutineer)}**" if m.mutineer is not None else "")]
    if m.cutthroat:
        lines.append(f"Cutthroat: the coin shows {m.coin}.")
    if m.voters:
        if m.revealed:
            votes = ", ".join(f"{seat_name(table, x)} {(m.votes[x] or '?').capitalize()}" for x in m.voters)
            lines.append(f"Votes: {votes} (Yay {m.yay}, Nay {m.nay})")
        else:
            votes = ", ".join(f"{seat_name(table, x)} {'✅ voted' if x in m.voted else '⏳'}"
                              for x in m.voters)
            lines.append(f"Votes (sealed until all are in): {votes}")
    costs = [f"{seat_name(table, x)} d4 {d} → {coins(m.paid[x])}" for x, d in enumerate(m.d4) if d is not None]
    if costs:
        lines.append("Cost of Mutiny: " + ", ".join(costs))
    if m.captain_total is not None:
        lines.append(f"Challenge: Captain {' + '.join(map(str, m.captain_roll))} = **{m.captain_total}** · "
                     f"Mutineer {' + '.join(map(str, m.mutineer_roll))} = **{m.mutineer_total}**")
    if m.winner is not None:
        lines.append(f"**{seat_name(table, m.winner)}** wins the coffer.")
    return lines


def ledger_lines(table: Table, rows: list[LedgerRow]) -> list[str]:
    return [f"**{table.seats[r.seat].name}**: bought in {r.bought_in_text} · cashed out "
            f"{r.cashed_out_text} · net **{r.net_text}**" for r in rows]


def _cell(text: str) -> str:
    """A name as a spreadsheet cell: one starting like a formula ("=HYPERLINK(...)") is quoted,
    so opening the GM's ledger never runs what a player typed as their name."""
    return f"'{text}" if text[:1] in ("=", "+", "-", "@", "\t", "\r") else text


def ledger_csv(table: Table, rows: list[LedgerRow]) -> str:
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\n")
    writer.writerow(["seat", "name", "buy_in_cp", "cash_out_cp", "net_cp", "buy_in", "cash_out", "net"])
    for r in rows:
        writer.writerow([r.seat + 1, _cell(table.seats[r.seat].name), r.bought_in, r.cashed_out + r.at_table,
                         r.net, r.bought_in_text, coins(r.cashed_out + r.at_table), r.net_text])
    return out.getvalue()


class StonesAndBonesSpec(GameSpec):
    engine = sb.ENGINE
    command = "stones-and-bones"
    colour = discord.Colour.from_rgb(60, 110, 150)

    def table_embed(self, table: Table, view: BaseModel) -> discord.Embed:
        assert isinstance(view, sb.StonesAndBonesView)
        if view.over:
            title = "Stones & Bones: the game is over"
        else:
            title = f"Stones & Bones · Tide {view.tide} · Wave {view.wave}"
        captain = "" if view.over else f"🏴‍☠️ Captain **{seat_name(table, view.captain)}**"
        cursed = f" · ☠ Cursed: **{seat_name(table, view.cursed)}**" if view.cursed is not None else ""
        lines = [
            f"{captain}{cursed}",
            f"💰 Coffer **{view.coffer_text}** · ante {coins(view.ante)} · bets × {view.tide}"
            + (f" · Grumbles money waiting {coins(view.carry)}" if view.carry else ""),
            seat_names(table, view.question),
        ]
        embed = discord.Embed(title=title, description="\n".join(x for x in lines if x), colour=self.colour)
        purses = "\n".join(pirate_line(table, view, p) for p in view.pirates)
        embed.add_field(name="Purses", value=clip(purses, FIELD_VALUE), inline=False)
        if view.last_turn is not None and view.turn is not None and view.turn.result == "pending":
            embed.add_field(name="Last turn", value=clip(seat_names(table, view.last_turn.result_text), FIELD_VALUE),
                            inline=False)
        if view.turn is not None:
            embed.add_field(name="This turn" if view.turn.result == "pending" else "The turn",
                            value=clip("\n".join(turn_lines(table, view.turn)), FIELD_VALUE), inline=False)
        if view.table_stone is not None:
            embed.add_field(name="On the table",
                            value=f"{seat_name(table, view.table_stone.owner)}'s Stone `{view.table_stone.value}` "
                                  "(may be Pilfered)", inline=False)
        if view.mutiny is not None:
            embed.add_field(name="Mutiny!", value=clip("\n".join(mutiny_lines(table, view.mutiny)), FIELD_VALUE),
                            inline=False)
        if view.phase == "tide":
            chosen = {c.seat for c in view.tide_choices if c.chosen}
            rows = [f"{seat_name(table, p.seat)}: {'✅ chosen' if p.seat in chosen else '⏳ choosing'}"
                    for p in view.pirates if p.status == "afloat"]
            embed.add_field(name="Tide-rise choices (sealed until all are in)",
                            value=clip("\n".join(rows), FIELD_VALUE), inline=False)
        if view.over:
            embed.add_field(name="Ledger", value=clip("\n".join(ledger_lines(table, view.ledger)), FIELD_VALUE),
                            inline=False)
        return embed

    def private_embed(self, table: Table, seat: int, view: BaseModel) -> discord.Embed:
        assert isinstance(view, sb.StonesAndBonesView)
        embed = self.table_embed(table, view)
        embed.title = f"{embed.title} · for {table.seats[seat].name}"
        mine = []
        if view.mutiny is not None and view.mutiny.votes[seat] is not None:
            mine.append(f"Your vote: **{view.mutiny.votes[seat].capitalize()}**")  # type: ignore[union-attr]
        choice = next((c for c in view.tide_choices if c.seat == seat and c.choice), None)
        if choice is not None:
            what = f"buy in {coins(choice.amount or 0)}" if choice.choice == "buy" else choice.choice
            mine.append(f"Your Tide-rise choice: **{what}**")
        pirate = view.pirates[seat]
        mine.append(f"Your purse: **{pirate.purse_text}** (net {pirate.net_text})")
        embed.description = "\n".join(mine) + "\n\n" + (embed.description or "")
        return embed

    def action_label(self, view: BaseModel, action: BaseModel) -> str:
        assert isinstance(view, sb.StonesAndBonesView) and isinstance(action, sb.StonesAndBonesAction)
        return sb.action_label(view, action)

    def action_style(self, view: BaseModel, action: BaseModel) -> discord.ButtonStyle:
        assert isinstance(action, sb.StonesAndBonesAction)
        if action.kind in ("pay", "anchor", "yay", "ready", "keep", "stay"):
            return discord.ButtonStyle.success
        if action.kind in ("fly", "plank", "mutiny", "end", "grumble", "object"):
            return discord.ButtonStyle.danger
        if action.kind in ("heave", "buy", "pilfer", "share_all", "share_side", "refund", "nay"):
            return discord.ButtonStyle.primary
        return discord.ButtonStyle.secondary

    def prompt(self, table: Table, view: BaseModel, seat: int) -> str:
        assert isinstance(view, sb.StonesAndBonesView)
        if view.phase == "vote":
            return "your sealed vote on the Mutiny: Yay backs the Mutineer, Nay the Captain."
        if view.phase == "tide":
            return "your sealed Tide-rise choice: stay, Heave Down (cash out), buy in, or vote to end."
        return seat_names(table, view.question)

    def open_prompt(self, table: Table, view: BaseModel) -> str:
        """The question without the roller's name: the table has just mentioned them."""
        assert isinstance(view, sb.StonesAndBonesView)
        question = seat_names(table, view.question)
        if view.phase == "turn" and view.current_seat is not None:
            question = question.removeprefix(f"{table.seats[view.current_seat].name}: ")
        return question

    def start_options(self, table: Table, options: BaseModel) -> BaseModel:
        """Seats whose purse the host set bring it; the others bring the starting purse."""
        assert isinstance(options, sb.StonesAndBonesOptions)
        if not any(s.stake is not None for s in table.seats) or not 2 <= len(table.seats) <= MAX_SEATS:
            return options
        purses = [s.stake if s.stake is not None else options.starting_purse for s in table.seats]
        return options.model_copy(update={"purses": purses})

    def score_text(self, score: int) -> str:
        return f"a net of {signed_coins(score)}"

    def stake_text(self, table: Table, stake: int | None) -> str | None:
        options = sb.StonesAndBonesOptions.model_validate(table.options)
        return f"purse of {coins(stake if stake is not None else options.starting_purse)}"

    def timer_seconds(self, table: Table, state: BaseModel) -> int | None:
        """RULINGS 5.4: the «Mutiny!» call is open for 60 s after the Captain plunders, even at
        a table whose timer is off (otherwise one silent player would hold the game there for
        ever); a shorter table timer shortens it. Every other decision keeps the table's timer
        (None: no deadline)."""
        assert isinstance(state, sb.StonesAndBonesState)
        if state.phase == "mutiny_call":
            return min(table.timer_seconds, MUTINY_WINDOW) if table.timer_seconds else MUTINY_WINDOW
        return table.timer_seconds

    def finish_messages(self, table: Table, view: BaseModel) -> list[dict[str, Any]]:
        """The ledger: each seat's buy-in, cash-out and net in coins, and the same as a CSV file
        the game-master keeps (amounts in copper and in coins; the nets sum to zero)."""
        assert isinstance(view, sb.StonesAndBonesView)
        rows = view.ledger
        total = sum(r.net for r in rows)
        embed = discord.Embed(
            title=f"Stones & Bones ledger · game #{table.id}",
            description=clip("\n".join(ledger_lines(table, rows)), 4000)
            + f"\n\nEvery copper accounted for: the nets sum to {signed_coins(total)}.",
            colour=self.colour,
        )
        data = ledger_csv(table, rows).encode()
        name = f"stones-and-bones-{table.id}-ledger.csv"
        return [{"embed": embed, "file": discord.File(io.BytesIO(data), filename=name)}]

    def rules_text(self, options: BaseModel) -> str:
        assert isinstance(options, sb.StonesAndBonesOptions)
        return sb.rules_summary(options) + (
            "\n\n**Tavern mode** (`/stones-and-bones …`): `new gm_mode:True` runs the table without "
            "a seat, `npc` seats a named NPC, `purse` sets a seat's purse; `/game pause`, `/game "
            "resume`; a ledger (embed and CSV) at the end.")

    def option_lines(self, options: BaseModel) -> list[str]:
        assert isinstance(options, sb.StonesAndBonesOptions)
        d = sb.StonesAndBonesOptions()
        lines = []
        if options.starting_purse != d.starting_purse:
            lines.append(f"starting purse: {coins(options.starting_purse)}")
        if options.ante != d.ante:
            lines.append("ante: everyone antes at the start of each Wave (SB-2)")
        if options.ill_omens != d.ill_omens:
            lines.append("Ill Omens: only the largest matching group counts (SB-5)")
        if options.fold:
            lines.append("fold: a player may fold after the ante (SB-11)")
        if options.mutiny_trigger != d.mutiny_trigger:
            lines.append("Mutiny may be declared on any claim (SB-12)")
        if options.pilfer != d.pilfer:
            lines.append("Pilfer: off (SB-14)" if options.pilfer == "off"
                         else "Pilfer: the last Sunk Stone always lies on the table (SB-14)")
        if options.grumbles:
            lines.append("Grumbles: on (SB-15)")
        if options.buy_ins != d.buy_ins:
            lines.append("buy-ins: " + ", ".join(coins(b) for b in options.buy_ins))
        return lines


SPEC = StonesAndBonesSpec()


def _npc_name(raw: str, table: Table) -> str:
    name = " ".join(raw.split())
    if not 1 <= len(name) <= NAME_LIMIT or _BAD_NAME.search(name):
        raise Refusal(f"An NPC's name is 1 to {NAME_LIMIT} characters, without mentions or "
                      "formatting (e.g. `One-Eyed Mags`).")
    if any(s.name.casefold() == name.casefold() for s in table.seats):
        raise Refusal(f"Someone at this table is already called {name}; pick another name.")
    return name


def _ours(table: Table) -> None:
    if table.game != sb.ENGINE.key:
        raise Refusal("The game in this channel is not Stones & Bones.")


class StonesAndBonesCog(commands.GroupCog, group_name="stones-and-bones",
                        group_description="Stones & Bones: bet on the Bones, claim the coffer"):
    def __init__(self, bot: Boneyard) -> None:
        self.bot = bot
        bot.runtime.register(SPEC)
        super().__init__()

    @app_commands.command(name="new", description="Open a Stones & Bones table in this channel")
    @app_commands.describe(
        starting_purse="Each seat's purse: coins like 12gp 5sp, or whole gp like 50 (default 50 gp)",
        gm_mode="Run the table as game-master without taking a seat (default off)",
        ante="Who antes: the player on each turn (default), or everyone at each Wave's start",
        ill_omens="Two matching groups in one tier: multiply by each (default) or the largest",
        fold="Let a player fold after the ante (default off)",
        mutiny_trigger="Mutiny when the Captain claims again (default) or on any claim",
        pilfer="The last Sunk Stone: until its owner picks it up (default), always, or off",
        grumbles="Allow Grumbles: pay 1 gp × Tide to force a reroll (default off)",
    )
    @app_commands.choices(
        ante=[app_commands.Choice(name="per turn: the player antes (SB-2)", value="per_turn"),
              app_commands.Choice(name="per wave: everyone antes at the start", value="per_wave_all")],
        ill_omens=[app_commands.Choice(name="product: 3,3,5,5 is ×4", value="product"),
                   app_commands.Choice(name="largest group: 3,3,5,5 is ×2", value="max_group")],
        mutiny_trigger=[app_commands.Choice(name="plunder: the Captain claims again", value="plunder"),
                        app_commands.Choice(name="any claim", value="any_claim")],
        pilfer=[app_commands.Choice(name="window: until the owner picks it up", value="window"),
                app_commands.Choice(name="always", value="always"),
                app_commands.Choice(name="off", value="off")],
    )
    async def new(
        self,
        interaction: discord.Interaction,
        starting_purse: str = "50gp",
        gm_mode: bool = False,
        ante: str = "per_turn",
        ill_omens: str = "product",
        fold: bool = False,
        mutiny_trigger: str = "plunder",
        pilfer: str = "window",
        grumbles: bool = False,
    ) -> None:
        async def run() -> None:
            options = sb.StonesAndBonesOptions.model_validate({
                "starting_purse": parse_coins(starting_purse), "ante": ante, "ill_omens": ill_omens,
                "fold": fold, "mutiny_trigger": mutiny_trigger, "pilfer": pilfer, "grumbles": grumbles,
            })
            await self.bot.runtime.open_lobby(interaction, SPEC, options, host_plays=not gm_mode)

        await guarded(interaction, run)

    @app_commands.command(name="npc", description="Seat an NPC played by the bot (host, in the lobby)")
    @app_commands.describe(name="The NPC's name, e.g. One-Eyed Mags",
                           purse="Their purse: coins like 12gp 5sp, or whole gp (default: the starting purse)")
    async def npc(self, interaction: discord.Interaction, name: str, purse: str | None = None) -> None:
        async def run() -> None:
            def change(table: Table) -> str:
                _ours(table)
                if len(table.seats) >= SPEC.engine.max_seats:
                    raise Refusal(f"The table is full ({SPEC.engine.max_seats} seats).")
                who = _npc_name(name, table)
                stake = parse_coins(purse) if purse is not None else None
                table.seats.append(Seat(name=who, ai=True, stake=stake))
                return f"{who} takes seat {len(table.seats)} with a {SPEC.stake_text(table, stake)}."

            await self.bot.runtime.edit_lobby(interaction, change)

        await guarded(interaction, run)

    @app_commands.command(name="purse", description="Set a seat's starting purse (host, in the lobby)")
    @app_commands.rename(seat_or_player="seat-or-player")
    @app_commands.describe(seat_or_player="A seat number, an @player or an NPC's name",
                           amount="Coins like 12gp 5sp, or whole gp like 40")
    async def purse(self, interaction: discord.Interaction, seat_or_player: str, amount: str) -> None:
        async def run() -> None:
            def change(table: Table) -> str:
                _ours(table)
                seat = find_seat(table, seat_or_player)
                table.seats[seat].stake = parse_coins(amount)
                return f"{table.seats[seat].name} brings a {SPEC.stake_text(table, table.seats[seat].stake)}."

            await self.bot.runtime.edit_lobby(interaction, change)

        await guarded(interaction, run)

    @app_commands.command(name="rules", description="How Stones & Bones is played here")
    async def rules(self, interaction: discord.Interaction) -> None:
        await guarded(interaction, lambda: self.bot.runtime.show_rules(interaction, SPEC))


async def setup(bot: Boneyard) -> None:
    await bot.add_cog(StonesAndBonesCog(bot))
