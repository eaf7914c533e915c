# The type stubs (dlbkit/__init__.pyi) name every public function and class, with the same
# parameters and defaults as the package.
import ast
import inspect
import pathlib

import dlbkit

STUBS = pathlib.Path(dlbkit.__file__).with_name("__init__.pyi")


def stub_functions():
    tree = ast.parse(STUBS.read_text())
    return {node.name: node for node in tree.body if isinstance(node, ast.FunctionDef)}, \
        {node.name for node in tree.body if isinstance(node, ast.ClassDef)}


def test_every_public_name_has_a_stub_with_the_same_parameters():
    functions, classes = stub_functions()
    for name in dlbkit.__all__:
        obj = getattr(dlbkit, name)
        if inspect.isclass(obj):
            assert name in classes, name
            continue
        assert name in functions, name
        stub = functions[name].args
        real = inspect.signature(obj).parameters
        assert [a.arg for a in stub.args] == list(real), name
        stub_defaults = [ast.literal_eval(d) for d in stub.defaults]
        real_defaults = [p.default for p in real.values() if p.default is not inspect.Parameter.empty]
        assert stub_defaults == real_defaults, name
