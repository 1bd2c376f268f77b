"""[models-regenerate]"""

from __future__ import annotations

import sys
from pathlib import Path

from .conftest import required, scenario

SCRIPTS = Path(__file__).resolve().parent.parent / "scripts"


@scenario("models-regenerate")
def test_regenerating_the_models_from_the_served_description_changes_nothing(_scenario: str) -> None:
    sys.path.insert(0, str(SCRIPTS))
    try:
        import generate_models
    finally:
        sys.path.remove(str(SCRIPTS))
    generator = str(Path(sys.executable).parent / "datamodel-codegen")
    regenerated = generate_models.generate_models(generate_models.fetch_description(required("EARSHOT_BASE_URL")), generator)
    assert regenerated == generate_models.MODELS_PATH.read_text(), "src/earshot/models.py is stale: run python scripts/generate_models.py"
