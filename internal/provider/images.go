package provider

import (
	"encoding/base64"
	"fmt"

	"github.com/anthropics/anthropic-sdk-go/v2"
	"github.com/openai/openai-go/v3"

	"github.com/attache/attache/hostcore/chat"
)

// The context's images go as image blocks at the head of the first
// message of the person's (neither API takes images in the system prompt),
// after a line that says what follows and, before each image, a line with
// the uri it was read from, which the system prompt's section of it names:
// Anthropic's guide has images before the text they go with.

// imagesIntro opens the images of a request.
const imagesIntro = "The images of the attached context follow, each after the uri it was read from " +
	"(its section of the system prompt says so too)."

// imageLabel is the line before an image.
func imageLabel(im chat.ContextImage) string {
	return fmt.Sprintf("Image %s (%s, %d×%d)", chat.OneLine(im.URI), im.MIMEType, im.Width, im.Height)
}

// openAIImageParts are the images as Chat Completions content parts:
// image_url parts holding a data: URL, at the provider's detail.
func openAIImageParts(images []chat.ContextImage, detail string) []openai.ChatCompletionContentPartUnionParam {
	if len(images) == 0 {
		return nil
	}
	if detail == "" {
		detail = "high" // the estimate the budget counted; "auto" would leave it to the model
	}
	parts := []openai.ChatCompletionContentPartUnionParam{openai.TextContentPart(imagesIntro)}
	for _, im := range images {
		parts = append(parts, openai.TextContentPart(imageLabel(im)),
			openai.ImageContentPart(openai.ChatCompletionContentPartImageImageURLParam{
				URL: "data:" + im.MIMEType + ";base64," + base64.StdEncoding.EncodeToString(im.Data), Detail: detail}))
	}
	return parts
}

// anthropicImageBlocks are the images as Messages content blocks: image
// blocks with a base64 source.
func anthropicImageBlocks(images []chat.ContextImage) []anthropic.ContentBlockParamUnion {
	if len(images) == 0 {
		return nil
	}
	blocks := []anthropic.ContentBlockParamUnion{anthropic.NewTextBlock(imagesIntro)}
	for _, im := range images {
		blocks = append(blocks, anthropic.NewTextBlock(imageLabel(im)),
			anthropic.NewImageBlockBase64(im.MIMEType, base64.StdEncoding.EncodeToString(im.Data)))
	}
	return blocks
}

// firstUser is the index of the first message of the person's, or -1.
func firstUser(msgs []chat.Message) int {
	for i, m := range msgs {
		if m.Role == chat.RoleUser {
			return i
		}
	}
	return -1
}
