"""`cdesk mcp --confirm-spend-over N` (issue 27 point 5) with the official Python SDK's elicitation
callback: a render priced above N is asked about first; yes renders and charges, no charges nothing and
says so; a render at or under N is not asked about; publishing now is asked about; a client without
elicitation is refused with the reason and nothing is spent.

Run: `bash tests/mcp/run.sh`."""
import uuid

import anyio
from mcp import ClientSession, types
from mcp.client.stdio import stdio_client
from test_stdio import result_json, server, sandbox  # noqa: F401 (the fixture)


async def run(params, body, answer=None):
    """One session; `answer`: the user's reply to each question (True, False, or None: no elicitation
    capability). Returns what `body` returns and the questions asked."""
    asked = []

    async def elicit(context, request):
        asked.append(request.message)
        return types.ElicitResult(action="accept", content={"confirm": answer})

    async with stdio_client(params) as (read, write):
        kwargs = {} if answer is None else {"elicitation_callback": elicit}
        async with ClientSession(read, write, **kwargs) as s:
            await s.initialize()
            return await body(s), asked


async def balance(s):
    return result_json(await s.call_tool("get_balance", {}))["balance"]


async def render(s):
    before = await balance(s)
    price = result_json(await s.call_tool("generate_image", {"prompt": "a green mug", "getCost": True}))["creditsEstimate"]
    r = await s.call_tool("generate_image", {"prompt": "a green mug", "outputId": str(uuid.uuid4())})
    return before, price, r, await balance(s)


def test_a_render_above_the_limit_is_asked_about_and_yes_spends(sandbox):
    (before, price, r, after), asked = anyio.run(run, server(sandbox, args=["--confirm-spend-over", "0"]), render, True)
    assert len(asked) == 1 and "generate_image will spend" in asked[0] and str(price) in asked[0], asked
    assert not r.is_error, r.content
    assert after == before - price, "accepted: rendered and charged once"


def test_declined_spends_nothing_and_says_so(sandbox):
    (before, price, r, after), asked = anyio.run(run, server(sandbox, args=["--confirm-spend-over", "0"]), render, False)
    assert len(asked) == 1, asked
    assert r.is_error and "did not confirm" in r.content[0].text and "Nothing was spent" in r.content[0].text, r.content
    assert after == before, "declined: nothing charged"


def test_under_the_limit_nobody_is_asked(sandbox):
    (before, price, r, after), asked = anyio.run(run, server(sandbox, args=["--confirm-spend-over", "100000"]), render, False)
    assert asked == [] and not r.is_error and after == before - price


def test_a_client_that_cannot_ask_is_refused_and_nothing_is_spent(sandbox):
    (before, price, r, after), asked = anyio.run(run, server(sandbox, args=["--confirm-spend-over", "0"]), render, None)
    assert r.is_error and "cannot ask" in r.content[0].text, r.content
    assert after == before


def test_publishing_now_is_asked_about_and_declined_publishes_nothing(sandbox):
    async def body(s):
        card = result_json(await s.call_tool("list_cards", {"limit": 1}))["cards"][0]
        r = await s.call_tool("publish_post", {"cardId": card["id"]})
        return card, r

    (card, r), asked = anyio.run(run, server(sandbox, args=["--confirm-spend-over", "0"]), body, False)
    assert len(asked) == 1 and "publish" in asked[0] and card["id"] in asked[0], asked
    assert r.is_error and "Nothing was spent or published" in r.content[0].text, r.content
