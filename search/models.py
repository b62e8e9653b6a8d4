"""The search app's one table: the stored sentence embeddings that make search hybrid."""

from __future__ import annotations

from django.db import models


class SearchVector(models.Model):
    """A sentence embedding of the text search embeds for one rule, shared by every version whose
    rule has that text: `key` is sha256(model name + text) (search.vectors.vector_key),
    so a new version only computes vectors for rules whose text changed."""

    key = models.CharField(max_length=64, unique=True)
    # search.model.model_name(): a tuned model names its recipe and weights
    model = models.CharField(max_length=200)
    vector = models.BinaryField()  # float32 little-endian, 384 values
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        # the table it had in the rulesref app, kept with its rows
        db_table = "rulesref_searchvector"

    def __str__(self) -> str:
        return f"{self.model} {self.key[:12]}"
