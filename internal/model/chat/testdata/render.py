"""Renders chat templates with Jinja2 the way Hugging Face transformers'
apply_chat_template does (a sandboxed environment with trim_blocks and
lstrip_blocks, raise_exception, tojson), for TestJinjaGolden -update.

stdin: {"template": ..., "bos_token": ..., "eos_token": ..., "cases": {name: [messages]}}
stdout: {name: rendered prompt with the generation prompt}
"""
import json
import sys

from jinja2.exceptions import TemplateError
from jinja2.ext import loopcontrols
from jinja2.sandbox import ImmutableSandboxedEnvironment


def raise_exception(message):
    raise TemplateError(message)


def tojson(x, ensure_ascii=False, indent=None, separators=None, sort_keys=False):
    return json.dumps(x, ensure_ascii=ensure_ascii, indent=indent, separators=separators, sort_keys=sort_keys)


req = json.load(sys.stdin)
env = ImmutableSandboxedEnvironment(trim_blocks=True, lstrip_blocks=True, extensions=[loopcontrols])
env.filters["tojson"] = tojson
env.globals["raise_exception"] = raise_exception
template = env.from_string(req["template"])
out = {}
for name, messages in req["cases"].items():
    out[name] = template.render(
        messages=messages,
        add_generation_prompt=True,
        bos_token=req.get("bos_token") or "",
        eos_token=req.get("eos_token") or "",
    )
json.dump(out, sys.stdout, ensure_ascii=False)
