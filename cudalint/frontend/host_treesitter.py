"""Host-pointer provenance and async copies over tree-sitter nodes (the tree-sitter front-end's
counterpart of :mod:`cudalint.frontend.host`, whose tables and :class:`~cudalint.frontend.host.Provenance`
it reuses).

Simpler than the clang version: variables are keyed by their spelling (``h_x``, ``buf.host``, ``*out``),
statements are taken in source order without merging branches, and a type is known only from the
declaration's spelling (``std::vector<float> v``).  Helpers of the file that return an allocation or store one
through an out-parameter (``float**``) are followed, as are ``cudaHostRegister``/``cudaHostUnregister``.
"""

from __future__ import annotations

from dataclasses import replace
from typing import Optional

from ..model import AsyncCopy
from .host import (
    COPY_APIS, MALLOCS, MANAGED, DEVICE, NULL_P, OUT_ALLOCS, PAGEABLE, PINNED, REGISTER, UNKNOWN, UNKNOWN_P,
    UNREGISTER, Provenance, _kind_name, _merge1, host_side,
)

_KINDS = {"HostToHost": 0, "HostToDevice": 1, "DeviceToHost": 2, "DeviceToDevice": 3, "Default": 4}
_CASTS = ("static_cast", "reinterpret_cast", "const_cast")


def _strip(fe, n):
    while n is not None:
        if n.type == "parenthesized_expression" and n.named_child_count == 1:
            n = n.named_children[0]
        elif n.type == "cast_expression":
            n = n.child_by_field_name("value")
        elif n.type == "call_expression" and (f := n.child_by_field_name("function")) is not None \
                and f.type == "template_function" and fe.text_of(f.child_by_field_name("name")) in _CASTS \
                and len(fe.args(n)) == 1:
            n = fe.args(n)[0]
        else:
            return n
    return n


def join_tokens(fe, n) -> str:
    """The expression's tokens re-joined like :func:`cudalint.frontend.host._text`."""
    out = ""
    for t in (fe.text_of(x) for x in fe.walk(n) if x.child_count == 0 and x.type != "comment"):
        if not t:
            continue
        if out and (out[-1].isalnum() or out[-1] == "_") and (t[0].isalnum() or t[0] == "_"):
            out += " "
        elif out and t in ("+", "-", "?", ":", "=", "<<", ">>", "%", "/"):
            out += " " + t + " "
            continue
        elif t == ",":
            out += ", "
            continue
        out += t
    return " ".join(out.split())


class TSHostAnalysis:
    def __init__(self, fe, root):
        self.fe = fe
        self.root = root
        self.copies: list[AsyncCopy] = []
        self.by_name = {fe.fn_name(f): f for f in fe.host_functions}
        self._summaries: dict[str, Optional[tuple]] = {}
        self.decls: dict = {}  # name -> (declaration node, is array, is local, quals)
        for n in root.named_children:
            if n.type == "declaration":
                self._declare(n, local=False)

    def _declare(self, n, local: bool) -> None:
        quals = self.fe._quals(n)
        for d in n.children_by_field_name("declarator"):
            name, ptr, ref, dims, value, _ = self.fe.declarator(d)
            if name:
                self.decls[name] = (n, bool(dims) and not ptr, local, quals, self.fe.text_of(n.child_by_field_name("type")))

    def run(self) -> list[AsyncCopy]:
        for fn in self.fe.host_functions:
            self.walk_function(fn, record=True)
        return self.copies

    def walk_function(self, fn, record: bool) -> dict:
        env: dict = {}
        self.function = self.fe.fn_name(fn)
        self.returns: list = []
        body = fn.child_by_field_name("body")
        for n in self.fe.walk(body):
            t = n.type
            if t == "declaration":
                self._declare(n, local=True)
                for d in n.children_by_field_name("declarator"):
                    name, ptr, ref, dims, value, _ = self.fe.declarator(d)
                    if name and value is not None and value.type not in ("argument_list", "initializer_list", "parameter_list"):
                        p = self.prov(value, env)
                        if p is not None:
                            env[name] = p
            elif t == "assignment_expression" and TSop(n) == "=":
                lv = self.lvalue(n.child_by_field_name("left"))
                if lv is not None:
                    p = self.prov(n.child_by_field_name("right"), env)
                    env[lv] = p if p is not None else UNKNOWN_P
            elif t == "return_statement":
                kids = [k for k in n.named_children if k.type != "comment"]
                if kids:
                    self.returns.append(self.prov(kids[0], env))
            elif t == "call_expression":
                self.call(n, env, record)
        return env

    def lvalue(self, n) -> Optional[str]:
        n = _strip(self.fe, n)
        if n is None:
            return None
        if n.type == "identifier":
            return self.fe.text_of(n)
        if n.type == "field_expression":
            base = self.lvalue(n.child_by_field_name("argument"))
            return f"{base}.{self.fe.text_of(n.child_by_field_name('field'))}" if base else None
        if n.type == "pointer_expression" and TSop(n) == "*":
            base = self.lvalue(n.child_by_field_name("argument"))
            return "*" + base if base else None
        if n.type == "subscript_expression":
            base = self.lvalue(n.child_by_field_name("argument"))
            return base + "[]" if base else None
        return None

    def pointee(self, n) -> Optional[str]:
        """``&p`` -> ``p``; ``pp`` (a pointer to pointer) -> ``*pp``."""
        n = _strip(self.fe, n)
        if n is not None and n.type == "pointer_expression" and TSop(n) == "&":
            return self.lvalue(n.child_by_field_name("argument"))
        lv = self.lvalue(n)
        return "*" + lv if lv else None

    def call(self, n, env: dict, record: bool) -> None:
        fe = self.fe
        name = fe.callee_name(n.child_by_field_name("function"))
        args = fe.args(n)
        if name in OUT_ALLOCS and args:
            lv = self.pointee(args[0])
            if lv is not None:
                env[lv] = Provenance(OUT_ALLOCS[name], how=name, site=fe.span(n), name=lv.lstrip("*"))
            return
        if name in REGISTER | UNREGISTER and args:
            p = self.prov(args[0], env, resolve=False)
            if p is not None and p.site is not None:
                env[("@reg", p.site)] = Provenance(PINNED, how=name, site=fe.span(n)) if name in REGISTER else UNKNOWN_P
            return
        if name in COPY_APIS:
            if record:
                self.copy_call(n, name, args, env)
            return
        fn = self.by_name.get(name)
        if fn is not None:
            s = self.summary(name)
            if s is not None:
                _, outs = s
                params = [p for p, _ in fe.params(fn)]
                for i, a in enumerate(args):
                    if i < len(params) and ("*" + params[i]) in outs:
                        lv = self.pointee(a)
                        if lv is not None:
                            env[lv] = outs["*" + params[i]]

    def summary(self, name: str) -> Optional[tuple]:
        if name in self._summaries:
            return self._summaries[name]
        self._summaries[name] = None
        fn = self.by_name[name]
        saved = (self.function, self.returns)
        env = self.walk_function(fn, record=False)
        rets = [r for r in self.returns if r is not None]
        ret = rets[0] if rets and all(r == rets[0] for r in rets) else None
        if ret is not None:
            ret = replace(ret, via=ret.via or name)
        outs = {k: replace(v, via=v.via or name) for k, v in env.items()
                if isinstance(k, str) and k.startswith("*") and v.kind != UNKNOWN}
        self.function, self.returns = saved
        self._summaries[name] = (ret, outs)
        return self._summaries[name]

    def _resolve(self, p: Optional[Provenance], env: dict) -> Optional[Provenance]:
        if p is None or p.kind != PAGEABLE or p.site is None:
            return p
        r = env.get(("@reg", p.site))
        if r is None:
            return p
        if r.kind == PINNED:
            return replace(p, kind=PINNED, registered=r.site)
        return UNKNOWN_P

    def prov(self, n, env: dict, resolve: bool = True) -> Optional[Provenance]:
        p = self._prov(n, env)
        return self._resolve(p, env) if resolve else p

    def _storage(self, name: str) -> Optional[Provenance]:
        d = self.decls.get(name)
        if d is None:
            return None
        node, is_array, local, quals, _ = d
        site = self.fe.span(node)
        if "__managed__" in quals:
            return Provenance(MANAGED, how="__managed__ variable", site=site, name=name)
        if quals & {"__device__", "__constant__", "__shared__"}:
            return Provenance(DEVICE, how="device variable", site=site, name=name)
        if local:
            how = ("static " if "static" in quals else "stack " if is_array else "local ") + \
                ("array" if is_array else "variable")
        else:
            how = "global array" if is_array else "global variable"
        return Provenance(PAGEABLE, how=how, site=site, name=name)

    def _container(self, n) -> Optional[Provenance]:
        n = _strip(self.fe, n)
        if n is None or n.type != "identifier":
            return None
        name = self.fe.text_of(n)
        d = self.decls.get(name)
        if d is None or not d[2]:
            return None
        ty = d[4].replace(" ", "")
        for kind in ("vector", "array"):
            if ty.startswith(f"std::{kind}<"):
                return Provenance(PAGEABLE, how=f"std::{kind}", site=self.fe.span(d[0]), name=name)
        return None

    def _prov(self, n, env: dict) -> Optional[Provenance]:
        fe = self.fe
        n = _strip(fe, n)
        if n is None:
            return None
        t = n.type
        if t in ("null", "nullptr"):
            return NULL_P
        if t == "number_literal":
            return NULL_P if fe.text_of(n) == "0" else None
        if t == "identifier":
            name = fe.text_of(n)
            d = self.decls.get(name)
            if d is not None and d[1]:
                return self._storage(name)
            return env.get(name)
        if t in ("field_expression", "subscript_expression") or (t == "pointer_expression" and TSop(n) == "*"):
            lv = self.lvalue(n)
            return env.get(lv) if lv is not None else None
        if t == "pointer_expression" and TSop(n) == "&":
            inner = _strip(fe, n.child_by_field_name("argument"))
            if inner is None:
                return None
            if inner.type == "subscript_expression":
                base = inner.child_by_field_name("argument")
                return self._container(base) or self._prov(base, env)
            if inner.type == "pointer_expression" and TSop(inner) == "*":
                return self._prov(inner.child_by_field_name("argument"), env)
            root = inner
            while root.type == "field_expression":
                if TSop(root) == "->":
                    return None
                root = _strip(fe, root.child_by_field_name("argument"))
            return self._storage(fe.text_of(root)) if root.type == "identifier" else None
        if t == "binary_expression":
            op = TSop(n)
            if op in ("+", "-"):
                left, right = n.child_by_field_name("left"), n.child_by_field_name("right")
                p = self._prov(left, env)
                if p is not None or op == "-":
                    return p
                return self._prov(right, env)
            return None
        if t == "comma_expression":
            return self._prov(n.child_by_field_name("right"), env)
        if t == "conditional_expression":
            a = self._prov(n.child_by_field_name("consequence"), env)
            b = self._prov(n.child_by_field_name("alternative"), env)
            return _merge1(a, b) if a is not None and b is not None else None
        if t == "new_expression":
            if n.child_by_field_name("placement") is not None:
                return None
            array = any(ch.type == "new_declarator" for ch in n.named_children)
            return Provenance(PAGEABLE, how="new[]" if array else "new", site=fe.span(n))
        if t == "call_expression":
            f = n.child_by_field_name("function")
            name = fe.callee_name(f)
            args = fe.args(n)
            if name in MALLOCS and name not in self.by_name:
                return Provenance(PAGEABLE, how=name, site=fe.span(n))
            if name == "data" and not args and f is not None and f.type == "field_expression":
                return self._container(f.child_by_field_name("argument"))
            if name == "make_cudaPitchedPtr" and args:
                return self._prov(args[0], env)
            if name in self.by_name:
                s = self.summary(name)
                return s[0] if s is not None else None
        return None

    def copy_call(self, n, name: str, args: list, env: dict) -> None:
        fe = self.fe
        dst_i, src_i, kind_i, stream_i, default_kind = COPY_APIS[name]
        provs: dict = {}
        texts: dict = {}
        kind = default_kind
        kind_text = None
        for role, i in (("dst", dst_i), ("src", src_i)):
            if i is not None and i < len(args):
                provs[role] = self.prov(args[i], env)
                texts[role] = join_tokens(fe, args[i])
        if kind_i is not None and kind_i < len(args):
            kt = fe.text_of(args[kind_i]).strip()
            short = kt.split("::")[-1].replace("cudaMemcpy", "").replace("hipMemcpy", "")
            kind = _KINDS.get(short, fe.const(args[kind_i]))
            kind_text = join_tokens(fe, args[kind_i]) or None
        elif default_kind is not None:
            kind_text = _kind_name(name, default_kind) + " (default)" if kind_i is not None \
                else _kind_name(name, default_kind)
        stream = join_tokens(fe, args[stream_i]) if stream_i is not None and stream_i < len(args) else None
        roles = host_side(kind, "dst" in provs, "src" in provs)
        provenance = {r: (p.kind if p is not None else UNKNOWN) for r, p in provs.items()}
        self.copies.append(AsyncCopy(
            api=name, span=fe.span(n), kind=kind_text, host_side=roles, provenance=provenance,
            pointer_text=texts,
            alloc_site={r: (p.site if p is not None else None) for r, p in provs.items()},
            allocation={r: p.how for r, p in provs.items() if p is not None and p.how},
            alloc_name={r: p.name for r, p in provs.items() if p is not None and p.name},
            helper={r: p.via for r, p in provs.items() if p is not None and p.via},
            registered_at={r: p.registered for r, p in provs.items() if p is not None and p.registered},
            stream=stream or None, function=self.function))


def TSop(n) -> str:
    o = n.child_by_field_name("operator")
    if o is not None:
        return o.type
    return next((ch.type for ch in n.children if not ch.is_named), "")


def collect_async_copies(fe, root) -> list[AsyncCopy]:
    return TSHostAnalysis(fe, root).run()


__all__ = ["collect_async_copies", "DEVICE", "PAGEABLE"]
