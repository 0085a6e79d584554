"""Chat templates of the kit's model families: copies of each family's public template (Jinja, as shipped).

Each constant is the template text a family's official checkpoint carries (``chat_template.jinja`` or the
``chat_template`` key of ``tokenizer_config.json`` / ``chat_template.json``), kept to what the kit needs to be
faithful about: the turn markers, the end-of-turn token after every turn, the image placeholder and the generation
prompt. Tool-call branches of the long templates are left out (the extractor never sends tools).
"""

from __future__ import annotations

# Qwen2.5-VL (Qwen/Qwen2.5-VL-*-Instruct chat_template.json): ChatML with a default system turn.
QWEN2_5_VL = (
    "{% set image_count = namespace(value=0) %}{% set video_count = namespace(value=0) %}{% for message in messages %}"
    "{% if loop.first and message['role'] != 'system' %}<|im_start|>system\nYou are a helpful assistant.<|im_end|>\n"
    "{% endif %}<|im_start|>{{ message['role'] }}\n{% if message['content'] is string %}{{ message['content'] }}"
    "<|im_end|>\n{% else %}{% for content in message['content'] %}"
    "{% if content['type'] == 'image' or 'image' in content or 'image_url' in content %}"
    "{% set image_count.value = image_count.value + 1 %}{% if add_vision_id %}Picture {{ image_count.value }}: "
    "{% endif %}<|vision_start|><|image_pad|><|vision_end|>"
    "{% elif content['type'] == 'video' or 'video' in content %}{% set video_count.value = video_count.value + 1 %}"
    "{% if add_vision_id %}Video {{ video_count.value }}: {% endif %}<|vision_start|><|video_pad|><|vision_end|>"
    "{% elif 'text' in content %}{{ content['text'] }}{% endif %}{% endfor %}<|im_end|>\n{% endif %}{% endfor %}"
    "{% if add_generation_prompt %}<|im_start|>assistant\n{% endif %}"
)

# Qwen3-VL instruct (Qwen/Qwen3-VL-*-Instruct chat_template.json), without its tool branches: ChatML, no default
# system turn.
QWEN3_VL = r"""{%- if messages[0].role == 'system' -%}
{{- '<|im_start|>system\n' -}}
{%- if messages[0].content is string -%}{{- messages[0].content -}}
{%- else -%}{%- for content in messages[0].content -%}{%- if 'text' in content -%}{{- content.text -}}{%- endif -%}{%- endfor -%}
{%- endif -%}
{{- '<|im_end|>\n' -}}
{%- endif -%}
{%- set image_count = namespace(value=0) -%}
{%- set video_count = namespace(value=0) -%}
{%- for message in messages -%}
{%- if message.role == "user" or (message.role == "system" and not loop.first) -%}
{{- '<|im_start|>' + message.role + '\n' -}}
{%- if message.content is string -%}{{- message.content -}}
{%- else -%}
{%- for content in message.content -%}
{%- if content.type == 'image' or 'image' in content or 'image_url' in content -%}
{%- set image_count.value = image_count.value + 1 -%}
{%- if add_vision_id -%}Picture {{ image_count.value }}: {% endif -%}
<|vision_start|><|image_pad|><|vision_end|>
{%- elif content.type == 'video' or 'video' in content -%}
{%- set video_count.value = video_count.value + 1 -%}
{%- if add_vision_id -%}Video {{ video_count.value }}: {% endif -%}
<|vision_start|><|video_pad|><|vision_end|>
{%- elif 'text' in content -%}{{- content.text -}}
{%- endif -%}
{%- endfor -%}
{%- endif -%}
{{- '<|im_end|>\n' -}}
{%- elif message.role == "assistant" -%}
{{- '<|im_start|>' + message.role + '\n' -}}
{%- if message.content is string -%}{{- message.content -}}
{%- else -%}{%- for content_item in message.content -%}{%- if 'text' in content_item -%}{{- content_item.text -}}{%- endif -%}{%- endfor -%}
{%- endif -%}
{{- '<|im_end|>\n' -}}
{%- elif message.role == "tool" -%}
{%- if loop.first or (messages[loop.index0 - 1].role != "tool") -%}{{- '<|im_start|>user' -}}{%- endif -%}
{{- '\n<tool_response>\n' -}}
{%- if message.content is string -%}{{- message.content -}}{%- endif -%}
{{- '\n</tool_response>' -}}
{%- if loop.last or (messages[loop.index0 + 1].role != "tool") -%}{{- '<|im_end|>\n' -}}{%- endif -%}
{%- endif -%}
{%- endfor -%}
{%- if add_generation_prompt -%}{{- '<|im_start|>assistant\n' -}}{%- endif -%}"""

# Gemma 3 (google/gemma-3-*-it): no system role (a system text is prefixed to the first user turn), the assistant
# is "model", every turn ends with <end_of_turn>.
GEMMA3 = r"""{{ bos_token }}
{%- if messages[0]['role'] == 'system' -%}
    {%- if messages[0]['content'] is string -%}
        {%- set first_user_prefix = messages[0]['content'] + '\n\n' -%}
    {%- else -%}
        {%- set first_user_prefix = messages[0]['content'][0]['text'] + '\n\n' -%}
    {%- endif -%}
    {%- set loop_messages = messages[1:] -%}
{%- else -%}
    {%- set first_user_prefix = "" -%}
    {%- set loop_messages = messages -%}
{%- endif -%}
{%- for message in loop_messages -%}
    {%- if (message['role'] == 'user') != (loop.index0 % 2 == 0) -%}
        {{ raise_exception("Conversation roles must alternate user/assistant/user/assistant/...") }}
    {%- endif -%}
    {%- if (message['role'] == 'assistant') -%}
        {%- set role = "model" -%}
    {%- else -%}
        {%- set role = message['role'] -%}
    {%- endif -%}
    {{ '<start_of_turn>' + role + '\n' + (first_user_prefix if loop.first else "") }}
    {%- if message['content'] is string -%}
        {{ message['content'] | trim }}
    {%- elif message['content'] is iterable -%}
        {%- for item in message['content'] -%}
            {%- if item['type'] == 'image' -%}
                {{ '<start_of_image>' }}
            {%- elif item['type'] == 'text' -%}
                {{ item['text'] | trim }}
            {%- endif -%}
        {%- endfor -%}
    {%- else -%}
        {{ raise_exception("Invalid content type") }}
    {%- endif -%}
    {{ '<end_of_turn>\n' }}
{%- endfor -%}
{%- if add_generation_prompt -%}
    {{'<start_of_turn>model\n'}}
{%- endif -%}
"""

# Gemma 4 (google/gemma-4-*-it), without its tool branches: turns open with <|turn>, close with <turn|>; a system
# turn (with <|think|> when thinking is on); images are <|image|> placeholders; the assistant is "model"; with
# thinking off (the default) the generation prompt closes an empty thought channel.
GEMMA4 = r"""{{- bos_token -}}
{%- set thinking = enable_thinking is defined and enable_thinking -%}
{%- if messages and messages[0]['role'] in ['system', 'developer'] -%}
{%- set loop_messages = messages[1:] -%}
{%- else -%}
{%- set loop_messages = messages -%}
{%- endif -%}
{%- if thinking or loop_messages | length < messages | length -%}
{{- '<|turn>system\n' -}}
{%- if thinking -%}{{- '<|think|>\n' -}}{%- endif -%}
{%- if loop_messages | length < messages | length -%}
{%- if messages[0]['content'] is string -%}{{- messages[0]['content'] | trim -}}
{%- else -%}{%- for item in messages[0]['content'] -%}{%- if item['type'] == 'text' -%}{{- item['text'] | trim -}}{%- endif -%}{%- endfor -%}
{%- endif -%}
{%- endif -%}
{{- '<turn|>\n' -}}
{%- endif -%}
{%- for message in loop_messages -%}
{%- set role = 'model' if message['role'] == 'assistant' else message['role'] -%}
{{- '<|turn>' + role + '\n' -}}
{%- if message['content'] is string -%}{{- message['content'] | trim -}}
{%- else -%}
{%- for item in message['content'] -%}
{%- if item['type'] == 'text' -%}{{- item['text'] | trim -}}
{%- elif item['type'] == 'image' -%}{{- '<|image|>' -}}
{%- elif item['type'] == 'audio' -%}{{- '<|audio|>' -}}
{%- elif item['type'] == 'video' -%}{{- '<|video|>' -}}
{%- endif -%}
{%- endfor -%}
{%- endif -%}
{{- '<turn|>\n' -}}
{%- endfor -%}
{%- if add_generation_prompt -%}
{{- '<|turn>model\n' -}}
{%- if not thinking -%}{{- '<|channel>thought\n<channel|>' -}}{%- endif -%}
{%- endif -%}"""

_IDEFICS_TURNS = (
    "{% for message in messages %}{{message['role'] | capitalize}}{% if message['content'][0]['type'] == 'image' %}"
    "{{':'}}{% else %}{{': '}}{% endif %}{% for line in message['content'] %}{% if line['type'] == 'text' %}"
    "{{line['text']}}{% elif line['type'] == 'image' %}{{ '<image>' }}{% endif %}{% endfor %}<end_of_utterance>\n"
    "{% endfor %}{% if add_generation_prompt %}{{ 'Assistant:' }}{% endif %}"
)

# Idefics3 (HuggingFaceM4/Idefics3-8B-Llama3): "User:<image>...<end_of_utterance>\nAssistant:".
IDEFICS3 = "<|begin_of_text|>" + _IDEFICS_TURNS

# SmolVLM (HuggingFaceTB/SmolVLM-*-Instruct): Idefics3's turns after <|im_start|>.
SMOLVLM = "<|im_start|>" + _IDEFICS_TURNS

# Mistral 3 / Pixtral (mistralai/Mistral-Small-3.1-*-Instruct, Pixtral-12B), without tool branches: [INST]...[/INST],
# the system text before the last user turn, images as [IMG], an assistant turn closed by </s>.
MISTRAL3 = r"""{%- if messages[0]['role'] == 'system' -%}
{%- if messages[0]['content'] is string -%}{%- set system_message = messages[0]['content'] -%}
{%- else -%}{%- set system_message = messages[0]['content'][0]['text'] -%}{%- endif -%}
{%- set loop_messages = messages[1:] -%}
{%- else -%}
{%- set loop_messages = messages -%}
{%- endif -%}
{{- bos_token -}}
{%- for message in loop_messages -%}
{%- if (message['role'] == 'user') != (loop.index0 % 2 == 0) -%}
{{- raise_exception('After the optional system message, conversation roles must alternate user/assistant/user/assistant/...') -}}
{%- endif -%}
{%- if message['role'] == 'user' -%}
{{- '[INST]' -}}
{%- if loop.last and system_message is defined -%}{{- system_message + '\n\n' -}}{%- endif -%}
{%- if message['content'] is string -%}{{- message['content'] -}}
{%- else -%}
{%- for chunk in message['content'] -%}
{%- if chunk['type'] == 'text' -%}{{- chunk['text'] -}}
{%- elif chunk['type'] == 'image' or chunk['type'] == 'image_url' -%}{{- '[IMG]' -}}
{%- endif -%}
{%- endfor -%}
{%- endif -%}
{{- '[/INST]' -}}
{%- elif message['role'] == 'assistant' -%}
{%- if message['content'] is string -%}{{- message['content'] -}}
{%- else -%}{%- for chunk in message['content'] -%}{%- if chunk['type'] == 'text' -%}{{- chunk['text'] -}}{%- endif -%}{%- endfor -%}
{%- endif -%}
{{- eos_token -}}
{%- endif -%}
{%- endfor -%}"""

# GLM-4.1V / GLM-4.5V (zai-org/GLM-4.1V-9B-Thinking), without tools: no closing token; a turn ends where the next
# one opens (<|user|>, <|assistant|>, <|system|>, <|observation|>).
GLM4V = r"""[gMASK]<sop>
{%- for msg in messages -%}
{%- if msg.role == 'system' -%}<|system|>
{{ msg.content }}
{%- elif msg.role == 'user' -%}<|user|>{{ '\n' }}
{%- if msg.content is string -%}{{ msg.content }}
{%- else -%}
{%- for item in msg.content -%}
{%- if item.type == 'video' or 'video' in item -%}<|begin_of_video|><|video|><|end_of_video|>
{%- elif item.type == 'image' or 'image' in item -%}<|begin_of_image|><|image|><|end_of_image|>
{%- elif item.type == 'text' -%}{{ item.text }}
{%- endif -%}
{%- endfor -%}
{%- endif -%}
{%- elif msg.role == 'assistant' -%}<|assistant|>{{ '\n' }}
{%- if msg.content is string -%}{{ msg.content }}
{%- else -%}{%- for item in msg.content -%}{%- if item.type == 'text' -%}{{ item.text }}{%- endif -%}{%- endfor -%}
{%- endif -%}
{%- endif -%}
{%- endfor -%}
{%- if add_generation_prompt -%}<|assistant|>
{%- if enable_thinking is defined and not enable_thinking -%}{{ '\n<think></think>\n' }}{%- else -%}{{ '\n' }}{%- endif -%}
{%- endif -%}"""

# PaddleOCR-VL (PaddlePaddle/PaddleOCR-VL chat_template.jinja): "User: ...\nAssistant: ...<|end_of_sentence|>", the
# image before the text of its turn.
PADDLEOCR_VL = r"""{%- if not add_generation_prompt is defined -%}{%- set add_generation_prompt = true -%}{%- endif -%}
{%- if not cls_token is defined -%}{%- set cls_token = "<|begin_of_sentence|>" -%}{%- endif -%}
{%- if not sep_token is defined -%}{%- set sep_token = "<|end_of_sentence|>" -%}{%- endif -%}
{{- cls_token -}}
{%- for message in messages -%}
{%- if message["role"] == "user" -%}
{{- "User: " -}}
{%- if message["content"] is string -%}{{- message["content"] -}}
{%- else -%}
{%- for content in message["content"] -%}{%- if content["type"] == "image" -%}{{ "<|IMAGE_START|><|IMAGE_PLACEHOLDER|><|IMAGE_END|>" }}{%- endif -%}{%- endfor -%}
{%- for content in message["content"] -%}{%- if content["type"] == "text" -%}{{ content["text"] }}{%- endif -%}{%- endfor -%}
{%- endif -%}
{{ "\n" -}}
{%- elif message["role"] == "assistant" -%}
{{- "Assistant: " -}}
{%- if message["content"] is string -%}{{- message["content"] -}}
{%- else -%}{%- for content in message["content"] -%}{%- if content["type"] == "text" -%}{{ content["text"] }}{%- endif -%}{%- endfor -%}
{%- endif -%}
{{ sep_token -}}
{%- elif message["role"] == "system" -%}
{%- if message["content"] is string -%}{{- message["content"] + "\n" -}}
{%- else -%}{%- for content in message["content"] -%}{%- if content["type"] == "text" -%}{{ content["text"] + "\n" }}{%- endif -%}{%- endfor -%}
{%- endif -%}
{%- endif -%}
{%- endfor -%}
{%- if add_generation_prompt -%}{{- "Assistant: " -}}{%- endif -%}"""
