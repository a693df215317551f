"""No view chooses a status for a ServiceError (issue 20, item 5), checked by reading the
views' source: the site's middleware (``web.errors``) and the back office's
``office_view`` (``backoffice.errors``) map every kind; a view catches a ServiceError
only to show the refusal where the request was made.

- A public view (web/views) catches one only to put its problems on its form
  (``add_error``) and show the form again.
- A back-office view (backoffice/views) catches one only to hand it to ``refused`` (the
  form's page again) or ``refused_back`` (the page a button is on).
- No view names an HTTP error of its own (``Http404``, ``HttpResponseBadRequest``...) or
  an ``ErrorKind``: it raises the contract's errors and leaves the status to its door.

Each rule is a function of a module's source and namespace, so that the tests below show
it catching a breach in a module made for the purpose as well as passing on the views.
"""

from __future__ import annotations

import ast
import builtins
import importlib
import textwrap
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

import ecfgrading
from ecfgrading.errors import NotFound, ServiceError

PACKAGE = Path(ecfgrading.__file__).parent
DOORS = {"web": PACKAGE / "web" / "views", "backoffice": PACKAGE / "backoffice" / "views"}
OWN_STATUS = frozenset(
    {"Http404", "HttpResponseBadRequest", "HttpResponseNotFound", "HttpResponseGone"}
    | {"ErrorKind"}
)
BACK_OFFICE_HELPERS = frozenset({"refused", "refused_back"})


def breaches(source: str, namespace: dict[str, Any], door: str) -> list[str]:
    """What in a view module's source breaks the rule of its door (line: what)."""
    tree = ast.parse(source)
    found = [f"{line}: names {name}" for line, name in _own_statuses(tree)]
    for handler in _handlers(tree):
        if _catches_service_error(handler, namespace):
            found += [f"{handler.lineno}: {why}" for why in _misuse(handler, door)]
    return found


def _own_statuses(tree: ast.AST) -> Iterator[tuple[int, str]]:
    for node in ast.walk(tree):
        if isinstance(node, ast.Name) and node.id in OWN_STATUS:
            yield node.lineno, node.id
        elif isinstance(node, ast.Attribute) and node.attr in OWN_STATUS:
            yield node.lineno, node.attr
        elif isinstance(node, ast.ImportFrom):
            yield from ((node.lineno, a.name) for a in node.names if a.name in OWN_STATUS)


def _handlers(tree: ast.AST) -> Iterator[ast.ExceptHandler]:
    yield from (node for node in ast.walk(tree) if isinstance(node, ast.ExceptHandler))


def _catches_service_error(handler: ast.ExceptHandler, namespace: dict[str, Any]) -> bool:
    """A bare ``except``, or one naming ServiceError, a subclass or a base of it."""
    if handler.type is None:
        return True
    named = handler.type.elts if isinstance(handler.type, ast.Tuple) else [handler.type]
    for expression in named:
        caught = _resolve(expression, namespace)
        if isinstance(caught, type) and (
            issubclass(caught, ServiceError) or issubclass(ServiceError, caught)
        ):
            return True
    return False


def _resolve(expression: ast.expr, namespace: dict[str, Any]) -> Any:
    if isinstance(expression, ast.Name):
        return namespace.get(expression.id, getattr(builtins, expression.id, None))
    if isinstance(expression, ast.Attribute):
        return getattr(_resolve(expression.value, namespace), expression.attr, None)
    return None


def _misuse(handler: ast.ExceptHandler, door: str) -> list[str]:
    problems = []
    if any(isinstance(node, ast.Raise) for node in ast.walk(handler)):
        problems.append("raises (a status chosen for the door)")
    last = handler.body[-1]
    returned = last.value if isinstance(last, ast.Return) else None
    if door == "backoffice":
        if not (isinstance(returned, ast.Call) and _called(returned) in BACK_OFFICE_HELPERS):
            problems.append("does not end by returning refused(...) or refused_back(...)")
    else:
        puts = any(isinstance(n, ast.Call) and _called(n) == "add_error" for n in ast.walk(handler))
        if not (puts and isinstance(returned, ast.Call)):
            problems.append("does not put the problems on its form and show it again")
        if any(isinstance(n, ast.Constant) and type(n.value) is int for n in ast.walk(handler)):
            problems.append("writes a status by hand")
    return problems


def _called(call: ast.Call) -> str:
    func = call.func
    return func.attr if isinstance(func, ast.Attribute) else getattr(func, "id", "")


def view_modules() -> Iterator[tuple[str, Path]]:
    for door, folder in DOORS.items():
        yield from ((door, path) for path in sorted(folder.rglob("*.py")))


# The project's views ------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("door", "path"),
    list(view_modules()),
    ids=[str(path.relative_to(PACKAGE)) for _, path in view_modules()],
)
def test_no_view_catches_a_service_error_to_choose_a_status(door: str, path: Path) -> None:
    name = ".".join(("ecfgrading", *path.relative_to(PACKAGE).with_suffix("").parts))
    module = importlib.import_module(name.removesuffix(".__init__"))

    assert breaches(path.read_text(), vars(module), door) == []


def test_the_views_do_catch_service_errors_somewhere_so_the_rule_is_not_idle() -> None:
    caught = {
        door
        for door, path in view_modules()
        for handler in _handlers(ast.parse(path.read_text()))
        if handler.type is not None and "Error" in ast.unparse(handler.type)
    }
    assert caught == {"web", "backoffice"}


# The rule catches what it is for ------------------------------------------------------------


def _made(source: str) -> str:
    return textwrap.dedent(source)


class CaseGone(NotFound):
    pass


MADE_NAMESPACE = {"ServiceError": ServiceError, "NotFound": NotFound, "CaseGone": CaseGone}


def test_a_service_error_turned_into_a_404_by_a_view_is_caught() -> None:
    source = _made(
        """
        from django.http import Http404
        def view(request, code):
            try:
                return page(code)
            except CaseGone as missing:
                raise Http404(str(missing)) from None
        """
    )
    found = breaches(source, MADE_NAMESPACE, "web")

    assert found == [
        "2: names Http404",
        "7: names Http404",
        "6: raises (a status chosen for the door)",
        "6: does not put the problems on its form and show it again",
    ]


def test_a_back_office_view_rendering_a_status_of_its_own_is_caught() -> None:
    source = _made(
        """
        def view(request):
            try:
                publish()
            except (ValueError, ServiceError) as error:
                return render(request, "publish.html", {"failure": str(error)}, status=409)
            try:
                other()
            except Exception:
                pass
            try:
                fine()
            except ServiceError as error:
                return refused(request, "publish.html", {}, error)
        """
    )
    found = breaches(source, MADE_NAMESPACE, "backoffice")

    assert found == [
        "5: does not end by returning refused(...) or refused_back(...)",
        "9: does not end by returning refused(...) or refused_back(...)",
    ]


def test_a_form_shown_again_with_its_problems_passes_and_one_with_a_status_by_hand_not() -> None:
    source = _made(
        """
        def view(request, sent):
            try:
                submit(sent)
            except ServiceError as error:
                sent.add_error(None, error.message)
                return page(request, sent, status=error.kind.http_status)
            try:
                submit(sent)
            except ServiceError as error:
                sent.add_error(None, error.message)
                return page(request, sent, status=400)
            try:
                parse(sent)
            except KeyError:
                raise
        """
    )
    found = breaches(source, MADE_NAMESPACE, "web")

    assert found == ["10: writes a status by hand"]
