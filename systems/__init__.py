"""The sheet layer of every system: one package per system (``systems/<slug>/``), all the same
shape, found through :mod:`systems.registry`.

The shared contract is :mod:`systems.base` (:class:`SheetSystem` and its parts); shared code
imports it from here (``import systems``; ``systems.for_campaign(campaign)``) and never names a
system.
"""

from __future__ import annotations

from systems.base import (
    RULE_STORED as RULE_STORED,
)
from systems.base import (
    Advance as Advance,
)
from systems.base import (
    CampaignAction as CampaignAction,
)
from systems.base import (
    RollAction as RollAction,
)
from systems.base import (
    RolledResult as RolledResult,
)
from systems.base import (
    SheetSystem as SheetSystem,
)
from systems.base import (
    SpendForm as SpendForm,
)
from systems.base import (
    TrackAction as TrackAction,
)
from systems.base import (
    errors_text as errors_text,
)
from systems.base import (
    is_whole_number as is_whole_number,
)
from systems.base import (
    percent_text as percent_text,
)
from systems.base import (
    require as require,
)
from systems.base import (
    stored_int as stored_int,
)
from systems.base import (
    stored_names as stored_names,
)
from systems.base import (
    stored_object as stored_object,
)
from systems.registry import for_campaign as for_campaign
from systems.registry import for_ruleset as for_ruleset
