"""The kernel IR both front-ends lower to (:mod:`cudalint.ir.nodes`, :mod:`cudalint.ir.types`)."""
